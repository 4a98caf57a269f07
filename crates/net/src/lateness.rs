//! How late a paced server starts its ticks: each tick's start (the step, after the inputs that
//! came are taken) against its due time on the schedule, kept in a fixed histogram of 10 µs
//! buckets up to 100 ms (the memory does not grow with the match), and the exact maximum.

use std::time::Duration;

/// The width of a bucket.
const BUCKET: Duration = Duration::from_micros(10);

/// How many buckets: 10 µs to 100 ms; later starts count in the last.
const BUCKETS: usize = 10_000;

/// The ticks' start lateness so far.
pub struct Lateness {
    buckets: Vec<u32>,
    count: u64,
    max: Duration,
}

impl Default for Lateness {
    /// No tick yet.
    fn default() -> Lateness {
        Lateness {
            buckets: vec![0; BUCKETS],
            count: 0,
            max: Duration::ZERO,
        }
    }
}

impl Lateness {
    /// Counts a tick that started `late` after its due time.
    pub fn record(&mut self, late: Duration) {
        let bucket = (late.as_nanos() / BUCKET.as_nanos()) as usize;
        self.buckets[bucket.min(BUCKETS - 1)] += 1;
        self.count += 1;
        self.max = self.max.max(late);
    }

    /// The lateness that `q` (0 to 1) of the ticks do not exceed: the upper end of its bucket
    /// (at most the maximum; past the buckets, the maximum).
    pub fn quantile(&self, q: f64) -> Duration {
        let want = ((self.count as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, n) in self.buckets.iter().enumerate() {
            seen += u64::from(*n);
            if seen >= want && i + 1 < BUCKETS {
                return (BUCKET * (i as u32 + 1)).min(self.max);
            }
        }
        self.max
    }
}

impl std::fmt::Display for Lateness {
    /// `tick start lateness over N ticks: median A ms, p99 B ms, max C ms`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        write!(
            f,
            "tick start lateness over {} ticks: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            self.count,
            ms(self.quantile(0.5)),
            ms(self.quantile(0.99)),
            ms(self.max)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_bucket_ends_and_the_max_is_exact() {
        let mut l = Lateness::default();
        for us in 1..=100 {
            l.record(Duration::from_micros(us * 10 - 5));
        }
        l.record(Duration::from_millis(250));
        assert_eq!(l.quantile(0.5), Duration::from_micros(510));
        assert_eq!(l.quantile(0.99), Duration::from_micros(1000));
        assert_eq!(l.quantile(1.0), Duration::from_millis(250));
        assert_eq!(
            l.to_string(),
            "tick start lateness over 101 ticks: median 0.51 ms, p99 1.00 ms, max 250.00 ms"
        );
        assert_eq!(Lateness::default().quantile(0.5), Duration::ZERO);
    }
}
