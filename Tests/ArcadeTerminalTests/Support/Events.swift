import ArcadeCore

// Short spellings for expected events, so tables read like the keys they describe.

func key(_ name: String, _ modifiers: KeyModifiers = [], repeat isRepeat: Bool = false) -> InputEvent {
    .key(KeyEvent(name, modifiers: modifiers, isRepeat: isRepeat))
}

func keyUp(_ name: String, _ modifiers: KeyModifiers = []) -> InputEvent {
    .keyUp(KeyEvent(name, modifiers: modifiers))
}

func mouse(
    _ action: MouseAction, _ col: Int, _ row: Int, _ button: MouseButton = .left,
    _ modifiers: KeyModifiers = []
) -> InputEvent {
    .mouse(MouseEvent(action, col: col, row: row, button: button, modifiers: modifiers))
}

/// The bytes of `text` as UTF-8 (escape sequences are written with `\u{1B}`).
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
