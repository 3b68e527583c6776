//! autocontext's paired statistics (`analytics/paired_statistics.py`),
//! computed with the same IEEE operations in the same order, so that a
//! replayed confidence interval is the same double autocontext recorded.
//!
//! Python's `statistics.fmean` is `math.fsum(data) / n` (Shewchuk's
//! partials, ported here from CPython's `math_fsum`), and `statistics.stdev`
//! is exact: the sum of squared deviations as a fraction, then a correctly
//! rounded square root of that fraction. `math.lgamma` is CPython's own
//! Lanczos approximation, not the C library's, so it is ported too.
//! `math.log`, `math.log1p`, `math.exp` and `math.sqrt` are the platform's
//! C library, as Rust's `f64` methods are; `math.erfc` is glibc's, ported
//! here because Rust has no `erfc`.

// The published constants of CPython's lgamma and glibc's erfc are kept
// digit for digit, so they can be checked against their sources.
#![allow(clippy::excessive_precision)]

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;

/// The three values `paired_confidence_interval` returns: the mean (none
/// for no effects) and the interval's bounds (none for one effect).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedInterval {
    pub mean: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// Why autocontext would raise instead of returning an interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StatisticsError {
    /// `confidence_z` is not finite and positive (Python's `ValueError`).
    #[error("confidence_z must be finite and positive")]
    ConfidenceZ,
    /// `max_looks` is below one (`ValueError`).
    #[error("max_looks must be at least one")]
    MaxLooks,
    /// `fmean` of nothing or `stdev` of fewer than two values
    /// (`StatisticsError`).
    #[error("too few data points")]
    TooFewData,
    /// An effect is NaN or infinite (`ValueError`).
    #[error("paired effects must be finite")]
    NonFiniteEffect,
    /// A sum or the standard deviation leaves the doubles (`OverflowError`).
    #[error("a sum of the paired effects overflows a double")]
    Overflow,
    /// The spent tail probability is not in `[0, 0.5)` (`ValueError`).
    #[error("tail_probability must be between zero and one half")]
    TailProbability,
    /// The incomplete beta's continued fraction did not converge in 200
    /// steps (`ArithmeticError`).
    #[error("incomplete beta continued fraction did not converge")]
    NoConvergence,
}

/// `paired_confidence_interval(effects, confidence_z, max_looks=max_looks)`.
pub fn paired_confidence_interval(
    effects: &[f64],
    confidence_z: f64,
    max_looks: u64,
) -> Result<PairedInterval, StatisticsError> {
    if effects.is_empty() {
        return Ok(PairedInterval {
            mean: None,
            low: None,
            high: None,
        });
    }
    if !confidence_z.is_finite() || confidence_z <= 0.0 {
        return Err(StatisticsError::ConfidenceZ);
    }
    if max_looks < 1 {
        return Err(StatisticsError::MaxLooks);
    }
    if effects.iter().any(|effect| !effect.is_finite()) {
        return Err(StatisticsError::NonFiniteEffect);
    }
    let mean = fmean(effects)?;
    let point = |low: f64, high: f64| PairedInterval {
        mean: Some(mean),
        low: Some(low),
        high: Some(high),
    };
    if effects.len() == 1 {
        return Ok(PairedInterval {
            mean: Some(mean),
            low: None,
            high: None,
        });
    }
    let standard_error = stdev(effects)? / (effects.len() as f64).sqrt();
    if standard_error == 0.0 {
        return Ok(point(mean, mean));
    }
    let family_alpha = erfc(confidence_z / 2.0_f64.sqrt());
    let look_alpha = family_alpha / max_looks as f64;
    let degrees_of_freedom = (effects.len() - 1) as u64;
    let critical = student_t_upper_quantile(look_alpha / 2.0, degrees_of_freedom)?;
    if !critical.is_finite() {
        return Ok(point(-f64::MAX, f64::MAX));
    }
    let half_width = critical * standard_error;
    if !half_width.is_finite() {
        return Ok(point(-f64::MAX, f64::MAX));
    }
    Ok(point(mean - half_width, mean + half_width))
}

/// `statistics.fmean(data)`: the correctly rounded sum divided by the count.
/// Autocontext raises on an empty list; that is an error here too.
pub fn fmean(data: &[f64]) -> Result<f64, StatisticsError> {
    if data.is_empty() {
        return Err(StatisticsError::TooFewData);
    }
    Ok(fsum(data)? / data.len() as f64)
}

/// `math.fsum(data)` for finite data: CPython's `math_fsum`, Shewchuk's
/// non-overlapping partials with its half-even correction at the end.
pub fn fsum(data: &[f64]) -> Result<f64, StatisticsError> {
    let mut partials: Vec<f64> = Vec::new();
    for &value in data {
        if !value.is_finite() {
            return Err(StatisticsError::NonFiniteEffect);
        }
        let mut x = value;
        let mut kept = 0;
        for index in 0..partials.len() {
            let mut y = partials.get(index).copied().unwrap_or(0.0);
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let yr = hi - x;
            let lo = y - yr;
            if lo != 0.0 {
                if let Some(slot) = partials.get_mut(kept) {
                    *slot = lo;
                }
                kept += 1;
            }
            x = hi;
        }
        partials.truncate(kept);
        if x != 0.0 {
            if !x.is_finite() {
                return Err(StatisticsError::Overflow);
            }
            partials.push(x);
        }
    }
    let Some(mut hi) = partials.pop() else {
        return Ok(0.0);
    };
    let mut lo = 0.0;
    while let Some(y) = partials.pop() {
        let x = hi;
        hi = x + y;
        let yr = hi - x;
        lo = y - yr;
        if lo != 0.0 {
            break;
        }
    }
    let next = partials.last().copied().unwrap_or(0.0);
    if (lo < 0.0 && next < 0.0) || (lo > 0.0 && next > 0.0) {
        let y = lo * 2.0;
        let x = hi + y;
        let yr = x - hi;
        if y == yr {
            hi = x;
        }
    }
    Ok(hi)
}

/// `statistics.stdev(data)` for at least two finite values: the exact
/// sample variance as a reduced fraction, then its square root correctly
/// rounded as CPython's `_float_sqrt_of_frac` does it.
pub fn stdev(data: &[f64]) -> Result<f64, StatisticsError> {
    if data.len() < 2 {
        return Err(StatisticsError::TooFewData);
    }
    let mut exact = Vec::with_capacity(data.len());
    for &value in data {
        exact.push(ExactDouble::of(value).ok_or(StatisticsError::NonFiniteEffect)?);
    }
    // Every value as an integer times 2^scale, the smallest exponent.
    let scale = exact.iter().map(|value| value.exponent).min().unwrap_or(0);
    let mut sum = BigInt::from(0);
    let mut sum_of_squares = BigInt::from(0);
    for value in &exact {
        let scaled = BigInt::from(value.mantissa) << (value.exponent - scale).unsigned_abs();
        sum_of_squares += &scaled * &scaled;
        sum += scaled;
    }
    let count = BigInt::from(data.len());
    // (n * sxx - sx^2) / (n * (n - 1)), in units of 2^(2 * scale).
    let deviations = &count * sum_of_squares - &sum * &sum;
    let (sign, mut numerator) = deviations.into_parts();
    if sign == Sign::Minus {
        return Err(StatisticsError::Overflow);
    }
    let mut denominator = BigUint::from(data.len()) * BigUint::from(data.len() - 1);
    let twice_scale = 2 * scale;
    if twice_scale >= 0 {
        numerator <<= twice_scale.unsigned_abs();
    } else {
        denominator <<= twice_scale.unsigned_abs();
    }
    let common = numerator.gcd(&denominator);
    if common > BigUint::from(1u8) {
        numerator /= &common;
        denominator /= &common;
    }
    float_sqrt_of_fraction(&numerator, &denominator)
}

/// A finite double as `mantissa * 2^exponent`.
struct ExactDouble {
    mantissa: i64,
    exponent: i64,
}

impl ExactDouble {
    fn of(value: f64) -> Option<Self> {
        if !value.is_finite() {
            return None;
        }
        let bits = value.to_bits();
        let biased = ((bits >> 52) & 0x7ff) as i64;
        let fraction = (bits & ((1 << 52) - 1)) as i64;
        let (magnitude, exponent) = if biased == 0 {
            (fraction, -1074)
        } else {
            (fraction | (1 << 52), biased - 1075)
        };
        let mantissa = if value.is_sign_negative() {
            -magnitude
        } else {
            magnitude
        };
        Some(Self { mantissa, exponent })
    }
}

/// CPython's `_sqrt_bit_width`: twice the double's precision and three.
const SQRT_BIT_WIDTH: i64 = 2 * 53 + 3;

/// `_float_sqrt_of_frac(n, m)`: a square root with round-to-odd in two
/// extra bits, then rounded to the nearest double as `int / int` does.
fn float_sqrt_of_fraction(
    numerator: &BigUint,
    denominator: &BigUint,
) -> Result<f64, StatisticsError> {
    let bit_difference = numerator.bits() as i64 - denominator.bits() as i64;
    let shift = (bit_difference - SQRT_BIT_WIDTH).div_euclid(2);
    let root = if shift >= 0 {
        square_root_round_to_odd(numerator, &(denominator << (2 * shift).unsigned_abs()))
    } else {
        square_root_round_to_odd(&(numerator << (2 * shift).unsigned_abs()), denominator)
    };
    let mantissa = u64::try_from(&root).map_err(|_| StatisticsError::Overflow)?;
    scaled_to_double(mantissa, shift).ok_or(StatisticsError::Overflow)
}

/// `_integer_sqrt_of_frac_rto(n, m)`.
fn square_root_round_to_odd(numerator: &BigUint, denominator: &BigUint) -> BigUint {
    if denominator.bits() == 0 {
        return BigUint::from(0u8);
    }
    let root = (numerator / denominator).sqrt();
    let inexact = &root * &root * denominator != *numerator;
    if inexact {
        root | BigUint::from(1u8)
    } else {
        root
    }
}

/// `mantissa * 2^exponent` rounded half-even to a double (subnormals
/// included), or none when it overflows.
fn scaled_to_double(mantissa: u64, exponent: i64) -> Option<f64> {
    if mantissa == 0 {
        return Some(0.0);
    }
    let width = i64::from(64 - mantissa.leading_zeros());
    let dropped = (width - 53).max(-1074 - exponent).max(0);
    let (kept, exponent) = if dropped == 0 {
        (mantissa, exponent)
    } else if dropped >= 64 {
        let half_or_more = dropped == 64 && mantissa >> 63 == 1;
        let above_half = half_or_more && mantissa << 1 != 0;
        (u64::from(above_half), exponent + dropped)
    } else {
        let kept = mantissa >> dropped;
        let rest = mantissa & ((1u64 << dropped) - 1);
        let half = 1u64 << (dropped - 1);
        let round_up = rest > half || (rest == half && kept & 1 == 1);
        (kept + u64::from(round_up), exponent + dropped)
    };
    // `kept` has at most 54 bits and is exact as a double; each power of
    // two below is exact, so the products are the value or overflow.
    let mut value = kept as f64;
    let mut exponent = exponent;
    while exponent > 0 {
        let step = exponent.min(1000);
        value *= power_of_two(step);
        exponent -= step;
    }
    while exponent < 0 {
        let step = (-exponent).min(1000);
        value /= power_of_two(step);
        exponent += step;
    }
    value.is_finite().then_some(value)
}

/// 2^exponent for 0 <= exponent <= 1000.
fn power_of_two(exponent: i64) -> f64 {
    f64::from_bits(((exponent + 1023) as u64) << 52)
}

/// `math.erfc(x)`: glibc's `erfc` (sysdeps/ieee754/dbl-64/s_erf.c, Sun's
/// fdlibm with glibc's evaluation order of the polynomials), which CPython
/// calls; other C libraries order the terms differently and differ in the
/// last bit.
pub fn erfc(x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const ERX: f64 = 8.45062911510467529297e-01;
    const PP: [f64; 5] = [
        1.28379167095512558561e-01,
        -3.25042107247001499370e-01,
        -2.84817495755985104766e-02,
        -5.77027029648944159157e-03,
        -2.37630166566501626084e-05,
    ];
    const QQ: [f64; 6] = [
        0.0,
        3.97917223959155352819e-01,
        6.50222499887672944485e-02,
        5.08130628187576562776e-03,
        1.32494738004321644526e-04,
        -3.96022827877536812320e-06,
    ];
    const PA: [f64; 7] = [
        -2.36211856075265944077e-03,
        4.14856118683748331666e-01,
        -3.72207876035701323847e-01,
        3.18346619901161753674e-01,
        -1.10894694282396677476e-01,
        3.54783043256182359371e-02,
        -2.16637559486879084300e-03,
    ];
    const QA: [f64; 7] = [
        0.0,
        1.06420880400844228286e-01,
        5.40397917702171048937e-01,
        7.18286544141962662868e-02,
        1.26171219808761642112e-01,
        1.36370839120290507362e-02,
        1.19844998467991074170e-02,
    ];
    const RA: [f64; 8] = [
        -9.86494403484714822705e-03,
        -6.93858572707181764372e-01,
        -1.05586262253232909814e+01,
        -6.23753324503260060396e+01,
        -1.62396669462573470355e+02,
        -1.84605092906711035994e+02,
        -8.12874355063065934246e+01,
        -9.81432934416914548592e+00,
    ];
    const SA: [f64; 9] = [
        0.0,
        1.96512716674392571292e+01,
        1.37657754143519042600e+02,
        4.34565877475229228821e+02,
        6.45387271733267880336e+02,
        4.29008140027567833386e+02,
        1.08635005541779435134e+02,
        6.57024977031928170135e+00,
        -6.04244152148580987438e-02,
    ];
    const RB: [f64; 7] = [
        -9.86494292470009928597e-03,
        -7.99283237680523006574e-01,
        -1.77579549177547519889e+01,
        -1.60636384855821916062e+02,
        -6.37566443368389627722e+02,
        -1.02509513161107724954e+03,
        -4.83519191608651397019e+02,
    ];
    const SB: [f64; 8] = [
        0.0,
        3.03380607434824582924e+01,
        3.25792512996573918826e+02,
        1.53672958608443695994e+03,
        3.19985821950859553908e+03,
        2.55305040643316442583e+03,
        4.74528541206955367215e+02,
        -2.24409524465858183362e+01,
    ];
    let high = (x.to_bits() >> 32) as u32;
    let negative = high >> 31 == 1;
    let magnitude = high & 0x7fff_ffff;
    if magnitude >= 0x7ff0_0000 {
        return if negative { 2.0 } else { 0.0 } + 1.0 / x;
    }
    if magnitude < 0x3feb_0000 {
        if magnitude < 0x3c70_0000 {
            return 1.0 - x;
        }
        let z = x * x;
        let r1 = PP[0] + z * PP[1];
        let z2 = z * z;
        let r2 = PP[2] + z * PP[3];
        let z4 = z2 * z2;
        let s1 = 1.0 + z * QQ[1];
        let s2 = QQ[2] + z * QQ[3];
        let s3 = QQ[4] + z * QQ[5];
        let r = r1 + z2 * r2 + z4 * PP[4];
        let s = s1 + z2 * s2 + z4 * s3;
        let y = r / s;
        // glibc compares the signed high word: any negative x is below 1/4.
        if (high as i32) < 0x3fd0_0000 {
            return 1.0 - (x + x * y);
        }
        let mut r = x * y;
        r += x - 0.5;
        return 0.5 - r;
    }
    if magnitude < 0x3ff4_0000 {
        let s = x.abs() - 1.0;
        let p1 = PA[0] + s * PA[1];
        let s2 = s * s;
        let q1 = 1.0 + s * QA[1];
        let s4 = s2 * s2;
        let p2 = PA[2] + s * PA[3];
        let s6 = s4 * s2;
        let q2 = QA[2] + s * QA[3];
        let p3 = PA[4] + s * PA[5];
        let q3 = QA[4] + s * QA[5];
        let p = p1 + s2 * p2 + s4 * p3 + s6 * PA[6];
        let q = q1 + s2 * q2 + s4 * q3 + s6 * QA[6];
        if negative {
            let z = ERX + p / q;
            return 1.0 + z;
        }
        let z = 1.0 - ERX;
        return z - p / q;
    }
    if magnitude >= 0x403c_0000 {
        return if negative { 2.0 - TINY } else { TINY * TINY };
    }
    let x = x.abs();
    let s = 1.0 / (x * x);
    let (big_r, big_s) = if magnitude < 0x4006_db6d {
        let r1 = RA[0] + s * RA[1];
        let s2 = s * s;
        let t1 = 1.0 + s * SA[1];
        let s4 = s2 * s2;
        let r2 = RA[2] + s * RA[3];
        let s6 = s4 * s2;
        let t2 = SA[2] + s * SA[3];
        let s8 = s4 * s4;
        let r3 = RA[4] + s * RA[5];
        let t3 = SA[4] + s * SA[5];
        let r4 = RA[6] + s * RA[7];
        let t4 = SA[6] + s * SA[7];
        (
            r1 + s2 * r2 + s4 * r3 + s6 * r4,
            t1 + s2 * t2 + s4 * t3 + s6 * t4 + s8 * SA[8],
        )
    } else {
        if negative && magnitude >= 0x4018_0000 {
            return 2.0 - TINY;
        }
        let r1 = RB[0] + s * RB[1];
        let s2 = s * s;
        let t1 = 1.0 + s * SB[1];
        let s4 = s2 * s2;
        let r2 = RB[2] + s * RB[3];
        let s6 = s4 * s2;
        let t2 = SB[2] + s * SB[3];
        let r3 = RB[4] + s * RB[5];
        let t3 = SB[4] + s * SB[5];
        let t4 = SB[6] + s * SB[7];
        (
            r1 + s2 * r2 + s4 * r3 + s6 * RB[6],
            t1 + s2 * t2 + s4 * t3 + s6 * t4,
        )
    };
    let z = f64::from_bits(x.to_bits() & 0xffff_ffff_0000_0000);
    let r = (-z * z - 0.5625).exp() * ((z - x) * (z + x) + big_r / big_s).exp();
    if negative { 2.0 - r / x } else { r / x }
}

/// `_student_t_upper_quantile(tail_probability, degrees_of_freedom)`: the
/// value whose Student-t survival is the tail, by 80 bisection steps.
pub fn student_t_upper_quantile(
    tail_probability: f64,
    degrees_of_freedom: u64,
) -> Result<f64, StatisticsError> {
    if tail_probability.is_nan() || !(0.0..0.5).contains(&tail_probability) {
        return Err(StatisticsError::TailProbability);
    }
    if degrees_of_freedom < 1 {
        return Err(StatisticsError::TailProbability);
    }
    if tail_probability == 0.0 {
        return Ok(f64::INFINITY);
    }
    let mut lower = 0.0;
    let mut upper = 1.0;
    while student_t_survival(upper, degrees_of_freedom)? > tail_probability {
        upper *= 2.0;
        if !upper.is_finite() {
            return Ok(upper);
        }
    }
    for _ in 0..80 {
        let midpoint = (lower + upper) / 2.0;
        if student_t_survival(midpoint, degrees_of_freedom)? > tail_probability {
            lower = midpoint;
        } else {
            upper = midpoint;
        }
    }
    Ok((lower + upper) / 2.0)
}

/// `_student_t_survival(value, degrees_of_freedom)`.
fn student_t_survival(value: f64, degrees_of_freedom: u64) -> Result<f64, StatisticsError> {
    let degrees = degrees_of_freedom as f64;
    let beta_x = degrees / (degrees + value * value);
    Ok(0.5 * regularized_incomplete_beta(beta_x, degrees / 2.0, 0.5)?)
}

/// `_regularized_incomplete_beta(value, alpha, beta)` for positive shapes.
fn regularized_incomplete_beta(value: f64, alpha: f64, beta: f64) -> Result<f64, StatisticsError> {
    if value <= 0.0 {
        return Ok(0.0);
    }
    if value >= 1.0 {
        return Ok(1.0);
    }
    let log_front = lgamma(alpha + beta) - lgamma(alpha) - lgamma(beta)
        + alpha * python_log(value)
        + beta * python_log1p(-value);
    let front = log_front.exp();
    if value < (alpha + 1.0) / (alpha + beta + 2.0) {
        return Ok(front * beta_continued_fraction(alpha, beta, value)? / alpha);
    }
    Ok(1.0 - front * beta_continued_fraction(beta, alpha, 1.0 - value)? / beta)
}

/// `math.log` for a value in (0, 1): the C library's `log`.
fn python_log(value: f64) -> f64 {
    value.ln()
}

/// `math.log1p`, which returns a zero argument unchanged.
fn python_log1p(value: f64) -> f64 {
    if value == 0.0 { value } else { value.ln_1p() }
}

/// `_beta_continued_fraction(alpha, beta, value)`: Lentz's method.
fn beta_continued_fraction(alpha: f64, beta: f64, value: f64) -> Result<f64, StatisticsError> {
    const MAX_ITERATIONS: u32 = 200;
    const EPSILON: f64 = 3.0e-14;
    const TINY: f64 = 1.0e-300;
    let clamp = |term: f64| if term.abs() < TINY { TINY } else { term };
    let qab = alpha + beta;
    let qap = alpha + 1.0;
    let qam = alpha - 1.0;
    let mut numerator = 1.0;
    let mut denominator = 1.0 / clamp(1.0 - qab * value / qap);
    let mut result = denominator;
    for iteration in 1..=MAX_ITERATIONS {
        let step = f64::from(iteration);
        let even_step = f64::from(2 * iteration);
        let coefficient = step * (beta - step) * value / ((qam + even_step) * (alpha + even_step));
        denominator = clamp(1.0 + coefficient * denominator);
        numerator = clamp(1.0 + coefficient / numerator);
        denominator = 1.0 / denominator;
        result *= denominator * numerator;

        let coefficient =
            -(alpha + step) * (qab + step) * value / ((alpha + even_step) * (qap + even_step));
        denominator = clamp(1.0 + coefficient * denominator);
        numerator = clamp(1.0 + coefficient / numerator);
        denominator = 1.0 / denominator;
        let delta = denominator * numerator;
        result *= delta;
        if (delta - 1.0).abs() < EPSILON {
            return Ok(result);
        }
    }
    Err(StatisticsError::NoConvergence)
}

const LANCZOS_G: f64 = 6.024_680_040_776_729_583_740_234_375;
const LANCZOS_NUMERATOR: [f64; 13] = [
    23_531_376_880.410_759_688_572_007_674_451_636_754_734_846_804_940,
    42_919_803_642.649_098_768_957_899_047_001_988_850_926_355_848_959,
    35_711_959_237.355_668_049_440_185_451_547_166_705_960_488_635_843,
    17_921_034_426.037_209_699_919_755_754_458_931_112_671_403_265_390,
    6_039_542_586.352_028_005_064_291_644_307_297_921_069_938_842_070_8,
    1_439_720_407.311_721_673_663_223_072_794_912_393_971_548_578_677_2,
    248_874_557.862_054_156_511_460_386_413_229_423_216_321_251_278_01,
    31_426_415.585_400_194_380_614_231_628_318_205_362_874_684_987_640,
    2_876_370.628_935_372_441_225_409_051_620_849_613_599_114_537_876_8,
    186_056.265_395_223_495_040_294_989_716_045_699_282_207_842_363_28,
    8_071.672_002_365_816_210_638_002_902_272_250_613_821_851_632_502_4,
    210.824_277_751_579_345_872_509_733_920_713_362_711_669_695_802_91,
    2.506_628_274_631_000_270_164_908_177_133_837_338_626_431_079_340_8,
];
/// The denominator x(x+1)...(x+11) of the Lanczos sum, by power of x.
const LANCZOS_DENOMINATOR: [f64; 13] = [
    0.0,
    39_916_800.0,
    120_543_840.0,
    150_917_976.0,
    105_258_076.0,
    45_995_730.0,
    13_339_535.0,
    2_637_558.0,
    357_423.0,
    32_670.0,
    1_925.0,
    66.0,
    1.0,
];

/// CPython's `lanczos_sum(x)` for positive x.
fn lanczos_sum(x: f64) -> f64 {
    let mut numerator = 0.0;
    let mut denominator = 0.0;
    if x < 5.0 {
        for (num, den) in LANCZOS_NUMERATOR
            .iter()
            .zip(LANCZOS_DENOMINATOR.iter())
            .rev()
        {
            numerator = numerator * x + num;
            denominator = denominator * x + den;
        }
    } else {
        for (num, den) in LANCZOS_NUMERATOR.iter().zip(LANCZOS_DENOMINATOR.iter()) {
            numerator = numerator / x + num;
            denominator = denominator / x + den;
        }
    }
    numerator / denominator
}

/// CPython's `m_lgamma` (what `math.lgamma` is) for the positive shapes the
/// incomplete beta is given; NaN for anything else.
fn lgamma(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    if x == x.floor() && x <= 2.0 {
        return 0.0;
    }
    if x < 1e-20 {
        return -x.ln();
    }
    let mut result = lanczos_sum(x).ln() - LANCZOS_G;
    result += (x - 0.5) * ((x + LANCZOS_G - 0.5).ln() - 1.0);
    result
}

#[cfg(test)]
#[path = "statistics_tests.rs"]
mod tests;
