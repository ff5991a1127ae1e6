//! The statistics of self-play, always with the game (or a pair of games from one opening) as
//! the unit: intervals of a mean, tests of two proportions and of two means as p-values, the
//! Holm correction for a family of tests, and a sequential test of a paired difference.

/// The 97.5% quantile of Student's t with `df` degrees of freedom (the half-width factor of a
/// 95% interval): exact for 1 to 4, then the Cornish-Fisher expansion around the normal's
/// 1.96 (within 0.002 from 5 on).
pub fn t975(df: u64) -> f64 {
    match df {
        0 => f64::INFINITY,
        1 => 12.706,
        2 => 4.303,
        3 => 3.182,
        4 => 2.776,
        _ => {
            let z: f64 = 1.959_964;
            let n = df as f64;
            let g1 = (z.powi(3) + z) / 4.0;
            let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
            let g3 = (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0;
            z + g1 / n + g2 / (n * n) + g3 / (n * n * n)
        }
    }
}

/// The standard normal's upper tail beyond `|z|`, doubled: a two-sided p-value.
pub fn two_sided_p(z: f64) -> f64 {
    (2.0 * upper_tail(z.abs())).min(1.0)
}

/// P(Z > x) for the standard normal, by the complementary error function (Numerical
/// Recipes' Chebyshev fit, relative error below 1.2e-7).
fn upper_tail(x: f64) -> f64 {
    let z = x / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    0.5 * t * poly.exp()
}

/// The p-value of two proportions `k1/n1` and `k2/n2` differing (two-proportion z-test; 1
/// when either is empty or both are all or nothing).
pub fn proportions_p(k1: u64, n1: u64, k2: u64, n2: u64) -> f64 {
    if n1 == 0 || n2 == 0 {
        return 1.0;
    }
    let (p1, p2) = (k1 as f64 / n1 as f64, k2 as f64 / n2 as f64);
    let p = (k1 + k2) as f64 / (n1 + n2) as f64;
    let se = (p * (1.0 - p) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    if se > 0.0 {
        two_sided_p((p1 - p2) / se)
    } else {
        1.0
    }
}

/// The p-value of two means differing (Welch, normal approximation), each given as (count,
/// sum, sum of squares) of per-game values; 1 when either has fewer than two games or both
/// have no spread.
pub fn means_p(a: (u64, f64, f64), b: (u64, f64, f64)) -> f64 {
    let stat = |(n, s, sq): (u64, f64, f64)| {
        let n = n as f64;
        let mean = s / n.max(1.0);
        let var = if n > 1.0 {
            (sq - n * mean * mean) / (n - 1.0)
        } else {
            0.0
        };
        (n, mean, var.max(0.0))
    };
    let (n1, m1, v1) = stat(a);
    let (n2, m2, v2) = stat(b);
    if n1 < 2.0 || n2 < 2.0 {
        return 1.0;
    }
    let se = (v1 / n1 + v2 / n2).sqrt();
    #[allow(
        clippy::float_cmp,
        reason = "with no spread both samples are constant: the means are equal or they differ"
    )]
    let same = m1 == m2;
    if se > 0.0 {
        two_sided_p((m1 - m2) / se)
    } else if same {
        1.0
    } else {
        0.0
    }
}

/// Which of a family of p-values are significant at level `alpha` after Holm's step-down
/// correction for the number of tests.
pub fn holm(ps: &[f64], alpha: f64) -> Vec<bool> {
    let mut order: Vec<usize> = (0..ps.len()).collect();
    order.sort_by(|&a, &b| ps[a].total_cmp(&ps[b]));
    let m = ps.len();
    let mut out = vec![false; m];
    for (rank, &i) in order.iter().enumerate() {
        if ps[i] <= alpha / (m - rank) as f64 {
            out[i] = true;
        } else {
            break;
        }
    }
    out
}

/// The mean of paired differences with its 95% interval (Student's t).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    /// Units (openings).
    pub n: u64,
    /// The mean difference.
    pub mean: f64,
    /// The interval's ends.
    pub low: f64,
    /// The interval's ends.
    pub high: f64,
}

impl Difference {
    /// From the per-unit differences.
    pub fn of(d: &[f64]) -> Difference {
        let n = d.len() as u64;
        if n == 0 {
            return Difference {
                n,
                mean: 0.0,
                low: -1.0,
                high: 1.0,
            };
        }
        let mean = d.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return Difference {
                n,
                mean,
                low: -1.0,
                high: 1.0,
            };
        }
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let half = t975(n - 1) * (var / n as f64).sqrt();
        Difference {
            n,
            mean,
            low: mean - half,
            high: mean + half,
        }
    }

    /// Whether the interval excludes 0.
    pub fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// The verdict of a sequential test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sprt {
    /// Not decided yet.
    Continue,
    /// The difference is at least `delta` (one way or the other).
    Different,
    /// The difference is smaller than `delta` either way.
    Same,
}

/// A two-sided sequential probability ratio test on paired differences (normal
/// approximation, the variance estimated from the data): H0 mean 0 against H1 mean +`delta`
/// and against mean −`delta`, each at level `alpha`/2 with power 1 − `beta`. Decides
/// `Different` as soon as either H1 is accepted, `Same` once both are rejected. The log
/// likelihood ratios are returned with the verdict.
pub fn sprt(d: &[f64], delta: f64, alpha: f64, beta: f64) -> (Sprt, f64, f64) {
    let n = d.len() as f64;
    if d.len() < 4 {
        return (Sprt::Continue, 0.0, 0.0);
    }
    let mean = d.iter().sum::<f64>() / n;
    // A floor on the variance: identical early pairs must not make the test certain.
    let var = (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).max(0.01);
    let sum: f64 = d.iter().sum();
    let llr = |mu: f64| (mu * sum - n * mu * mu / 2.0) / var;
    let (up, down) = (llr(delta), llr(-delta));
    let accept = ((1.0 - beta) / (alpha / 2.0)).ln();
    let reject = (beta / (1.0 - alpha / 2.0)).ln();
    let verdict = if up >= accept || down >= accept {
        Sprt::Different
    } else if up <= reject && down <= reject {
        Sprt::Same
    } else {
        Sprt::Continue
    };
    (verdict, up, down)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_and_tails_match_the_tables() {
        // Student's t table: 2.228 (10), 2.042 (30), 1.984 (100).
        assert!((t975(10) - 2.228).abs() < 0.003, "{}", t975(10));
        assert!((t975(30) - 2.042).abs() < 0.002);
        assert!((t975(100) - 1.984).abs() < 0.002);
        // Normal: two-sided p of 1.96 is 0.05, of 2.576 is 0.01.
        assert!((two_sided_p(1.96) - 0.05).abs() < 1e-4);
        assert!((two_sided_p(-2.576) - 0.01).abs() < 1e-4);
    }

    #[test]
    fn holm_corrects_for_the_number_of_tests() {
        // 0.01 ≤ 0.05/3, 0.02 ≤ 0.05/2, 0.04 ≤ 0.05: all three.
        assert_eq!(holm(&[0.04, 0.01, 0.02], 0.05), [true, true, true]);
        // 0.03 > 0.05/2 stops the steps: only the smallest.
        assert_eq!(holm(&[0.01, 0.03, 0.04], 0.05), [true, false, false]);
        // One p of 0.04 among five tests is not significant.
        assert_eq!(holm(&[0.04, 0.5, 0.6, 0.7, 0.9], 0.05), [false; 5]);
    }

    #[test]
    fn a_difference_is_significant_when_its_interval_excludes_zero() {
        let same = Difference::of(&[0.0; 20]);
        assert!(!same.significant());
        let shifted: Vec<f64> = (0..40)
            .map(|i| if i % 4 == 0 { 0.0 } else { 0.5 })
            .collect();
        assert!(Difference::of(&shifted).significant());
        let noise: Vec<f64> = (0..40)
            .map(|i| if i % 2 == 0 { 0.5 } else { -0.5 })
            .collect();
        assert!(!Difference::of(&noise).significant());
    }

    #[test]
    fn the_sequential_test_stops_both_ways() {
        let clear: Vec<f64> = (0..30)
            .map(|i| if i % 5 == 0 { 0.0 } else { 0.5 })
            .collect();
        assert_eq!(sprt(&clear, 0.05, 0.05, 0.05).0, Sprt::Different);
        let none: Vec<f64> = (0..400)
            .map(|i| if i % 2 == 0 { 0.1 } else { -0.1 })
            .collect();
        assert_eq!(sprt(&none, 0.05, 0.05, 0.05).0, Sprt::Same);
        assert_eq!(sprt(&none[..6], 0.05, 0.05, 0.05).0, Sprt::Continue);
    }
}
