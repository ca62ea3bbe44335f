//! The names players know keys by, for the hints and prompts that name a key.

use bevy::input::keyboard::KeyCode;

/// What a key is called on screen: the word printed on it ("Up", "A", "1", "Space", "Numpad
/// 2"). Letters, digits and the number pad are read off Bevy's names (`KeyA`, `Digit1`,
/// `Numpad2`); any other key without a short name of its own is named as Bevy names it.
pub fn key_name(key: KeyCode) -> String {
    let name = match key {
        KeyCode::ArrowUp => "Up",
        KeyCode::ArrowDown => "Down",
        KeyCode::ArrowLeft => "Left",
        KeyCode::ArrowRight => "Right",
        KeyCode::Escape => "Esc",
        KeyCode::Equal => "+",
        KeyCode::Minus => "-",
        _ => {
            let bevy_name = format!("{key:?}");
            let printed = bevy_name
                .strip_prefix("Key")
                .or_else(|| bevy_name.strip_prefix("Digit"))
                .map(str::to_owned);
            let numpad = bevy_name
                .strip_prefix("Numpad")
                .map(|rest| format!("Numpad {rest}"));
            return printed.or(numpad).unwrap_or(bevy_name);
        }
    };
    name.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_named_as_printed_on_them() {
        assert_eq!(key_name(KeyCode::ArrowUp), "Up");
        assert_eq!(key_name(KeyCode::KeyA), "A");
        assert_eq!(key_name(KeyCode::KeyZ), "Z");
        assert_eq!(key_name(KeyCode::Space), "Space");
        assert_eq!(key_name(KeyCode::Numpad2), "Numpad 2");
        assert_eq!(key_name(KeyCode::F5), "F5");
        assert_eq!(key_name(KeyCode::Enter), "Enter");
        assert_eq!(key_name(KeyCode::Digit4), "4");
    }
}
