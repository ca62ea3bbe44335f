//! The one way an out-of-range setting is brought back into range: clamped to the nearest end, or
//! set to a fallback when it is not a number, with a message that says what is allowed.

use std::fmt::Display;
use std::ops::RangeInclusive;

/// Brings `value` into `range`: a value below or above it takes the nearer end, a value that is
/// not a number (unequal to itself) takes `fallback`. Returns a message naming `name`, the value,
/// the allowed range and what is used instead, or `None` when the value was already allowed.
pub fn clamp_into<T: PartialOrd + Copy + Display>(
    value: &mut T,
    range: &RangeInclusive<T>,
    fallback: T,
    name: &str,
) -> Option<String> {
    let (low, high) = (*range.start(), *range.end());
    #[expect(clippy::eq_op, reason = "a value unequal to itself is NaN")]
    let not_a_number = *value != *value;
    let fixed = if not_a_number {
        fallback
    } else if *value < low {
        low
    } else if *value > high {
        high
    } else {
        return None;
    };
    let message = format!("{name} {value} is outside {low} to {high}; using {fixed}");
    *value = fixed;
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_inside_are_left_alone() {
        let mut value = 3;
        assert_eq!(clamp_into(&mut value, &(1..=5), 2, "count"), None);
        assert_eq!(value, 3);
        let mut edge = 5.0;
        assert_eq!(clamp_into(&mut edge, &(1.0..=5.0), 2.0, "edge"), None);
    }

    #[test]
    fn values_outside_take_the_nearer_end_with_a_message() {
        let mut low = -4;
        let message = clamp_into(&mut low, &(1..=5), 2, "count").unwrap();
        assert_eq!(low, 1);
        assert_eq!(message, "count -4 is outside 1 to 5; using 1");
        let mut high = 9.5f32;
        clamp_into(&mut high, &(0.5..=2.0), 1.0, "speed").unwrap();
        assert_eq!(high, 2.0);
    }

    #[test]
    fn not_a_number_takes_the_fallback() {
        let mut value = f32::NAN;
        let message = clamp_into(&mut value, &(0.5..=30.0), 8.0, "distance").unwrap();
        assert_eq!(value, 8.0);
        assert!(
            message.starts_with("distance NaN is outside 0.5 to 30"),
            "{message}"
        );
    }
}
