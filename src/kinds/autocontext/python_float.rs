//! Python's float arithmetic where autocontext writes its results into
//! evidence: `math.fsum` and `statistics.fmean`, bit for bit. A naive sum
//! would differ from Python's in the last bit often enough to refuse
//! figures autocontext wrote correctly.

/// `math.fsum`: the correctly rounded sum of `values` (Shewchuk's exact
/// partials, then CPython's round-half-even correction of the last
/// partial). `None` where Python raises or returns a non-finite value: an
/// infinite or NaN input, or an intermediate overflow.
pub fn fsum(values: &[f64]) -> Option<f64> {
    let mut partials: Vec<f64> = Vec::new();
    for &value in values {
        if !value.is_finite() {
            return None;
        }
        let mut x = value;
        let mut kept = Vec::with_capacity(partials.len() + 1);
        for &partial in &partials {
            let (big, small) = if x.abs() < partial.abs() {
                (partial, x)
            } else {
                (x, partial)
            };
            let high = big + small;
            let low = small - (high - big);
            if low != 0.0 {
                kept.push(low);
            }
            x = high;
        }
        if !x.is_finite() {
            return None;
        }
        if x != 0.0 {
            kept.push(x);
        }
        partials = kept;
    }
    let Some(mut high) = partials.pop() else {
        return Some(0.0);
    };
    let mut low = 0.0;
    while let Some(next) = partials.pop() {
        let x = high;
        high = x + next;
        low = next - (high - x);
        if low != 0.0 {
            break;
        }
    }
    // Half-way cases: the remaining partials say which way the true sum
    // lies, so round the last addition away from the tie they break.
    if let Some(&below) = partials.last() {
        if (low < 0.0 && below < 0.0) || (low > 0.0 && below > 0.0) {
            let doubled = low * 2.0;
            let x = high + doubled;
            if doubled == x - high {
                high = x;
            }
        }
    }
    Some(high)
}

/// `statistics.fmean` without weights: `fsum(values) / len(values)`.
/// `None` for no values (Python raises) or where `fsum` has no value.
pub fn fmean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    // Exact for every length a slice can hold below 2^53.
    #[allow(clippy::cast_precision_loss)]
    let count = values.len() as f64;
    fsum(values).map(|total| total / count)
}

#[cfg(test)]
mod tests {
    use super::{fmean, fsum};

    #[test]
    fn fsum_is_correctly_rounded_where_a_naive_sum_is_not() {
        let values = [0.1; 10];
        assert_ne!(values.iter().sum::<f64>(), 1.0);
        assert_eq!(fsum(&values), Some(1.0));
        assert_eq!(
            fsum(&[1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]),
            Some(1e-100)
        );
        // A tie broken by a partial below it (CPython's test_math case).
        assert_eq!(
            fsum(&[1.0, 2f64.powi(-53), 2f64.powi(-106)]),
            Some(1.0 + f64::EPSILON)
        );
        assert_eq!(fsum(&[]), Some(0.0));
        assert_eq!(fsum(&[f64::MAX, f64::MAX]), None);
        assert_eq!(fsum(&[f64::NAN]), None);
    }

    #[test]
    fn fmean_divides_the_exact_sum() {
        assert_eq!(fmean(&[3.5, 4.0, 5.25]), Some(4.25));
        // Python gives 0.19999999999999998: fsum is 0.6, then one division.
        assert_eq!(fmean(&[0.1, 0.2, 0.3]), Some(0.6 / 3.0));
        assert_ne!(fmean(&[0.1, 0.2, 0.3]), Some(0.2));
        assert_eq!(fmean(&[]), None);
    }
}
