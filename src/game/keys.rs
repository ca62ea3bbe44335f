//! The names players know keys by, for the hints and prompts that name a key.

use bevy::input::keyboard::KeyCode;

/// What a key is called on screen: the word printed on it ("Up", "A", "Space", "Numpad 2"). A
/// key without a short name of its own is named as Bevy names it.
pub fn key_name(key: KeyCode) -> String {
    const LETTERS: [&str; 26] = [
        "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R",
        "S", "T", "U", "V", "W", "X", "Y", "Z",
    ];
    const LETTER_KEYS: [KeyCode; 26] = [
        KeyCode::KeyA,
        KeyCode::KeyB,
        KeyCode::KeyC,
        KeyCode::KeyD,
        KeyCode::KeyE,
        KeyCode::KeyF,
        KeyCode::KeyG,
        KeyCode::KeyH,
        KeyCode::KeyI,
        KeyCode::KeyJ,
        KeyCode::KeyK,
        KeyCode::KeyL,
        KeyCode::KeyM,
        KeyCode::KeyN,
        KeyCode::KeyO,
        KeyCode::KeyP,
        KeyCode::KeyQ,
        KeyCode::KeyR,
        KeyCode::KeyS,
        KeyCode::KeyT,
        KeyCode::KeyU,
        KeyCode::KeyV,
        KeyCode::KeyW,
        KeyCode::KeyX,
        KeyCode::KeyY,
        KeyCode::KeyZ,
    ];
    if let Some(at) = LETTER_KEYS.iter().position(|&letter| letter == key) {
        return LETTERS[at].to_owned();
    }
    let name = match key {
        KeyCode::ArrowUp => "Up",
        KeyCode::ArrowDown => "Down",
        KeyCode::ArrowLeft => "Left",
        KeyCode::ArrowRight => "Right",
        KeyCode::Space => "Space",
        KeyCode::Enter => "Enter",
        KeyCode::Escape => "Esc",
        KeyCode::Tab => "Tab",
        KeyCode::Backspace => "Backspace",
        KeyCode::Numpad2 => "Numpad 2",
        KeyCode::Numpad4 => "Numpad 4",
        KeyCode::Numpad6 => "Numpad 6",
        KeyCode::Numpad8 => "Numpad 8",
        KeyCode::Equal => "+",
        KeyCode::Minus => "-",
        _ => return format!("{key:?}"),
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
    }
}
