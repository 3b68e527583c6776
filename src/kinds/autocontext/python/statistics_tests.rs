//! Every expected value below was printed by autocontext 0.18.0 under
//! CPython 3.11.7 (glibc, x86_64) as the bits of the double:
//! `struct.unpack('<Q', struct.pack('<d', value))`, from
//! `math.fsum`, `statistics.fmean`, `statistics.stdev`, `math.lgamma`,
//! `math.erfc(z / math.sqrt(2.0))`,
//! `autocontext.analytics.paired_statistics._student_t_upper_quantile` and
//! `paired_confidence_interval(effects, z, max_looks=looks)`.

use super::*;

fn bits(value: f64) -> u64 {
    value.to_bits()
}

fn interval_bits(interval: PairedInterval) -> [Option<u64>; 3] {
    [
        interval.mean.map(bits),
        interval.low.map(bits),
        interval.high.map(bits),
    ]
}

/// `[((i * 7919) % 1000) / 1000.0 - 0.4 for i in range(count)]`, the same
/// doubles in both languages.
fn spread(count: u64) -> Vec<f64> {
    (0..count)
        .map(|index| ((index * 7919) % 1000) as f64 / 1000.0 - 0.4)
        .collect()
}

const RANDOM: [f64; 17] = [
    0.07816312921162116,
    -0.42160711272055895,
    -0.9399261828977459,
    0.3072715077855237,
    -0.5799826089005378,
    -0.48544605004078156,
    -0.20560347473354512,
    0.2831563075493455,
    0.9776224208074429,
    -0.07693397987474992,
    0.9869700152033374,
    0.9851439883172557,
    -0.5146489288531135,
    -0.8547097742573173,
    -0.680197955540764,
    0.6838054629579113,
    0.19910945789253698,
];

#[test]
fn fsum_is_correctly_rounded_like_python() {
    let cases: [(&[f64], u64, u64); 4] = [
        (&[1e-16, 1.0, 1e16], 0x4341c37937e08001, 0x4327af4c4a80aaac),
        (&[0.1; 10], 0x3ff0000000000000, 0x3fb999999999999a),
        (
            &[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50],
            0x2b2bff2ee48e0530,
            0x2affff1105349837,
        ),
        (
            &[0.3, -0.1, 0.7, 0.05, -0.2, 0.45],
            0x3ff3333333333333,
            0x3fc9999999999999,
        ),
    ];
    for (data, sum, mean) in cases {
        assert_eq!(fsum(data).map(bits), Ok(sum), "fsum {data:?}");
        assert_eq!(fmean(data).map(bits), Ok(mean), "fmean {data:?}");
    }
    // The naive left-to-right sum is not what Python computes.
    assert_ne!([0.1; 10].iter().sum::<f64>().to_bits(), 0x3ff0000000000000);
}

#[test]
fn fsum_and_fmean_refuse_what_python_refuses() {
    assert_eq!(fsum(&[f64::MAX, f64::MAX]), Err(StatisticsError::Overflow));
    assert_eq!(
        fsum(&[1.0, f64::NAN]),
        Err(StatisticsError::NonFiniteEffect)
    );
    assert_eq!(fmean(&[]), Err(StatisticsError::TooFewData));
    assert_eq!(fsum(&[]), Ok(0.0));
}

#[test]
fn stdev_is_the_exact_variance_rooted_like_python() {
    let cases: [(&[f64], u64); 7] = [
        (&[1.5, 2.5, 2.5, 2.75, 3.25, 4.75], 0x3ff14c22515c8b96),
        (&[5e-324, 1e-323, 2e-323], 0x0000000000000002),
        (&[1e300, -1e300], 0x7e40e4d50f99b211),
        (&[0.25, 0.25, 0.25], 0),
        (&RANDOM, 0x3fe4be8fc47e11f6),
        (&[0.1, 0.2], 0x3fb21a1851ff630a),
        (&[1e-300, 3e-300, -2e-300], 0x01baf738adc9abd0),
    ];
    for (data, expected) in cases {
        assert_eq!(stdev(data).map(bits), Ok(expected), "stdev {data:?}");
    }
}

#[test]
fn stdev_refuses_what_python_refuses() {
    assert_eq!(stdev(&[1.0]), Err(StatisticsError::TooFewData));
    assert_eq!(
        stdev(&[1.0, f64::INFINITY]),
        Err(StatisticsError::NonFiniteEffect)
    );
    assert_eq!(
        stdev(&[-f64::MAX, f64::MAX]),
        Err(StatisticsError::Overflow)
    );
}

#[test]
fn lgamma_is_cpythons_lanczos_not_the_c_library() {
    let cases = [
        (0.5, 0x3fe250d048e7a1c0),
        (1.5, 0xbfbeeb95b094c1a0),
        (2.5, 0x3fd2383e809a67f0),
        (3.0, 0x3fe62e42fefa39ec),
        (10.5, 0x402be199a0f64394),
        (1e-25, 0x404cc845b54b54f2),
        (100.5, 0x407696f7f9481308),
        (1e6, 0x416871921236750d),
        (4.9999, 0x40096c5885f34b8a),
        (5.0, 0x40096ca77c922cf7),
        (5.5, 0x400fa99a5e94985a),
        (0.75, 0x3fca051c372609e0),
    ];
    for (x, expected) in cases {
        assert_eq!(bits(lgamma(x)), expected, "lgamma({x})");
    }
    assert_eq!(lgamma(1.0), 0.0);
    assert_eq!(lgamma(2.0), 0.0);
    assert!(lgamma(-1.0).is_nan());
    assert!(lgamma(f64::NAN).is_nan());
}

#[test]
fn erfc_matches_the_c_library() {
    let cases = [
        (1.96, 0x3fa9990c58859312),
        (2.5758, 0x3f847b5306b7eaac),
        (1.0, 0x3fd44ed0bb7cb20c),
        (0.5, 0x3fe3bf143b9aa712),
        (3.0, 0x3f661de1f985b5dc),
        (6.0, 0x3e20f30ef0092d57),
        (10.0, 0x3b326c75e84fb13b),
        (30.0, 0x1707795ad05ea6a0),
        (1e-17, 0x3ff0000000000000),
    ];
    for (z, expected) in cases {
        assert_eq!(
            bits(erfc(z / 2.0_f64.sqrt())),
            expected,
            "erfc({z} / sqrt 2)"
        );
    }
}

#[test]
fn student_t_quantiles_match_python_bit_for_bit() {
    let cases = [
        (0.025, 1, 0x40296993aacc4d1e),
        (0.025, 2, 0x401135ea98e146ba),
        (0.025, 5, 0x4004908d359dff38),
        (0.025, 30, 0x40005692f10aaed8),
        (0.025, 1000, 0x3fff65bda9fcfef2),
        (0.025, 1_000_000, 0x3fff5c05aeadb92c),
        (1e-15, 5, 0x4098819094d9f2ba),
        (1e-300, 3, 0x54b2e4b0c9627b0e),
        (1e-300, 1000, 0x404b254c3858e49e),
        (0.4999, 7, 0x3f3105d0b523ef00),
        (0.0025 / 14.0, 19, 0x4011569300d6ae14),
    ];
    for (tail, degrees, expected) in cases {
        assert_eq!(
            student_t_upper_quantile(tail, degrees).map(bits),
            Ok(expected),
            "quantile({tail}, {degrees})"
        );
    }
    assert_eq!(student_t_upper_quantile(0.0, 3), Ok(f64::INFINITY));
    for tail in [0.5, -0.1, f64::NAN, f64::INFINITY] {
        assert_eq!(
            student_t_upper_quantile(tail, 3),
            Err(StatisticsError::TailProbability)
        );
    }
    assert_eq!(
        student_t_upper_quantile(0.025, 0),
        Err(StatisticsError::TailProbability)
    );
}

#[test]
fn paired_intervals_match_python_bit_for_bit() {
    type Case = (Vec<f64>, f64, u64, [Option<u64>; 3]);
    let cases: [Case; 9] = [
        (vec![], 1.96, 1, [None, None, None]),
        (vec![0.2], 1.96, 1, [Some(0x3fc999999999999a), None, None]),
        (
            vec![0.1, 0.1, 0.1],
            1.96,
            1,
            [
                Some(0x3fb999999999999b),
                Some(0x3fb999999999999b),
                Some(0x3fb999999999999b),
            ],
        ),
        (
            vec![0.3, -0.1, 0.7, 0.05, -0.2, 0.45],
            1.96,
            15,
            [
                Some(0x3fc9999999999999),
                Some(0xbfe13f97624c769e),
                Some(0x3fee0c642f19436a),
            ],
        ),
        (
            vec![0.2, 0.4, 0.3, 0.25, 0.35, 0.31],
            1.96,
            15,
            [
                Some(0x3fd34e81b4e81b4f),
                Some(0x3fc330f551bc84c4),
                Some(0x3fdd0488c0f1f43c),
            ],
        ),
        (
            RANDOM.to_vec(),
            2.5,
            3,
            [
                Some(0xbf8f0f19264aff1e),
                Some(0xbfe14c3eeb877659),
                Some(0x3fe053c622551e61),
            ],
        ),
        (
            spread(2000),
            1.96,
            1,
            [
                Some(0x3fb978d4fdf3b644),
                Some(0x3fb63afa4f9f1a46),
                Some(0x3fbcb6afac485242),
            ],
        ),
        (
            spread(40),
            3.0,
            7,
            [
                Some(0x3fb872b020c49ba4),
                Some(0xbfb77cf4a85458b8),
                Some(0x3fd218953a776400),
            ],
        ),
        (
            vec![1e300, -1e300, 1e300],
            1.96,
            1,
            [
                Some(0x7e1fdafb60009cd0),
                Some(0xfe4e490a2f0f5938),
                Some(0x7e531fe48387c036),
            ],
        ),
    ];
    for (effects, z, looks, expected) in cases {
        let interval = paired_confidence_interval(&effects, z, looks).map(interval_bits);
        assert_eq!(
            interval,
            Ok(expected),
            "{} effects, z {z}, {looks} looks",
            effects.len()
        );
    }
}

#[test]
fn a_vanishing_tail_gives_the_widest_interval_as_python_does() {
    // erfc(40 / sqrt 2) underflows to zero: the critical value is infinite.
    let interval = paired_confidence_interval(&[0.1, 0.3], 40.0, 1);
    assert_eq!(
        interval.map(interval_bits),
        Ok([
            Some(0x3fc999999999999a),
            Some(0xffefffffffffffff),
            Some(0x7fefffffffffffff)
        ])
    );
}

#[test]
fn paired_intervals_refuse_what_python_refuses() {
    let effects = [0.1, 0.3];
    for z in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            paired_confidence_interval(&effects, z, 1),
            Err(StatisticsError::ConfidenceZ)
        );
    }
    assert_eq!(
        paired_confidence_interval(&effects, 1.96, 0),
        Err(StatisticsError::MaxLooks)
    );
    assert_eq!(
        paired_confidence_interval(&[0.1, f64::NAN], 1.96, 1),
        Err(StatisticsError::NonFiniteEffect)
    );
    assert_eq!(
        paired_confidence_interval(&[0.1, f64::NEG_INFINITY], 1.96, 1),
        Err(StatisticsError::NonFiniteEffect)
    );
    // Python: ValueError('tail_probability must be between zero and one half').
    assert_eq!(
        paired_confidence_interval(&effects, 1e-17, 1),
        Err(StatisticsError::TailProbability)
    );
    assert_eq!(
        paired_confidence_interval(&[-f64::MAX, f64::MAX, f64::MAX], 1.96, 1),
        Err(StatisticsError::Overflow)
    );
}

/// A rolling hash of the bits over a sweep, the same in both languages:
/// `h = (h * 31 + bits(f(k / scale))) % 2**64`.
fn sweep_hash(range: std::ops::RangeInclusive<i32>, scale: f64, f: fn(f64) -> f64) -> u64 {
    range.fold(0u64, |hash, k| {
        hash.wrapping_mul(31)
            .wrapping_add(bits(f(f64::from(k) / scale)))
    })
}

#[test]
fn erfc_and_lgamma_match_python_over_every_branch() {
    // erfc over [-6.25, 31.25] in steps of 1/64 crosses each of glibc's
    // intervals; lgamma over (0, 250] in steps of 1/8 both Lanczos forms.
    assert_eq!(sweep_hash(-400..=2000, 64.0, erfc), 0x1f444b6637dbb5ca);
    assert_eq!(sweep_hash(1..=2000, 8.0, lgamma), 0xe6af2e682936a42f);
    // A one-ulp change anywhere in the sweep changes the hash.
    assert_ne!(
        sweep_hash(-400..=2000, 64.0, |x| f64::from_bits(
            erfc(x).to_bits() ^ u64::from(x == 1.0)
        )),
        0x1f444b6637dbb5ca
    );
}
