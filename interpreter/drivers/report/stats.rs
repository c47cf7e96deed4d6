//! Small statistics: proportions with their 95% Wilson score interval.

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `hits / trials` (0 when there are no trials).
pub fn ratio(hits: u64, trials: u64) -> f64 {
    if trials == 0 {
        0.0
    } else {
        hits as f64 / trials as f64
    }
}

/// The 95% Wilson score interval of a proportion of `hits` in `trials`
/// independent trials; `(0, 1)` without trials.
///
/// ```
/// use cardboard::drivers::report::stats::wilson;
/// let (low, high) = wilson(50, 100);
/// assert!((low - 0.4038).abs() < 1e-4 && (high - 0.5962).abs() < 1e-4);
/// assert_eq!(wilson(0, 0), (0.0, 1.0));
/// ```
pub fn wilson(hits: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = hits as f64 / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At the ends the interval reaches 0 or 1 exactly (rounding would
    // leave it a hair short).
    let low = if hits == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if hits >= trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_stays_inside_zero_and_one() {
        let (low, high) = wilson(0, 10);
        assert_eq!(low, 0.0);
        assert!((high - 0.2775).abs() < 1e-4, "{high}");
        let (low, high) = wilson(10, 10);
        assert!((low - 0.7225).abs() < 1e-4, "{low}");
        assert_eq!(high, 1.0);
        let (low, high) = wilson(500_000, 1_000_000);
        assert!(high - low < 0.002 && low < 0.5 && high > 0.5);
    }
}
