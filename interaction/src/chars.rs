//! Characters that are no text a person sees: the control characters the
//! text rules refuse, and the bidirectional controls that reorder text
//! without being seen. The validator refuses the one and shows both where
//! text cannot be isolated; problems' messages quote both escaped.

/// Whether the text rules refuse `c`: a control character (Unicode's
/// `Cc`: U+0000 to U+001F and U+007F to U+009F) other than tab and newline.
pub(crate) fn is_refused_control(c: char) -> bool {
    c.is_control() && c != '\t' && c != '\n'
}

/// Whether `c` reorders the text around it without being seen: the marks
/// (U+200E, U+200F, U+061C), embeddings and overrides (U+202A to U+202E)
/// and isolates (U+2066 to U+2069).
pub(crate) fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}
