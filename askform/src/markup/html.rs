//! The one way `markup` writes HTML: markup as given, text escaped.

use std::fmt::Write;

/// HTML being written: markup as given, text escaped.
#[derive(Default)]
pub(super) struct Html(pub(super) String);

impl Html {
    pub(super) fn with_capacity(bytes: usize) -> Self {
        Self(String::with_capacity(bytes))
    }

    /// Appends markup as it is.
    pub(super) fn raw(&mut self, markup: &str) -> &mut Self {
        self.0.push_str(markup);
        self
    }

    /// Appends `text`, safe in element content and double-quoted
    /// attribute values.
    pub(super) fn text(&mut self, text: &str) -> &mut Self {
        let mut done = 0;
        // Byte by byte: each of these is ASCII, so never inside a character.
        for (at, byte) in text.bytes().enumerate() {
            let entity = match byte {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                b'\'' => "&#39;",
                _ => continue,
            };
            self.0.push_str(&text[done..at]);
            self.0.push_str(entity);
            done = at + 1;
        }
        self.0.push_str(&text[done..]);
        self
    }

    pub(super) fn number(&mut self, n: usize) -> &mut Self {
        let _ = write!(self.0, "{n}");
        self
    }

    /// Appends `<div class="slot" id="…">content</div>`.
    pub(super) fn slot(&mut self, id: &str, content: &str) -> &mut Self {
        self.raw(r#"<div class="slot" id=""#)
            .text(id)
            .raw(r#"">"#)
            .raw(content)
            .raw("</div>")
    }
}
