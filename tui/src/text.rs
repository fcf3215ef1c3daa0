//! Text as a terminal shows and edits it: display widths (CJK and emoji take
//! two columns), wrapping, and a cursor that moves by characters.

use unicode_width::UnicodeWidthChar;

/// The columns `c` takes (control characters take none).
pub fn char_width(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// The columns `s` takes on one line.
pub fn width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// Splits `text` into lines of at most `columns` columns: at its newlines,
/// at the last space that fits, or between characters when a word is wider
/// than the line (as CJK text, which has no spaces, needs).
pub fn wrap(text: &str, columns: usize) -> Vec<String> {
    let columns = columns.max(1);
    let mut lines = Vec::new();
    for paragraph in text.split('\n') {
        let mut line = String::new();
        let mut used = 0;
        for c in paragraph.chars() {
            let w = char_width(c);
            if used + w > columns && !line.is_empty() {
                match line.rfind(' ').filter(|&at| at > 0) {
                    Some(at) if c != ' ' => {
                        let rest = line.split_off(at + 1);
                        lines.push(line.trim_end().to_owned());
                        line = rest;
                    }
                    _ => lines.push(std::mem::take(&mut line)),
                }
                used = width(&line);
                if c == ' ' && line.is_empty() {
                    continue;
                }
            }
            line.push(c);
            used += w;
        }
        lines.push(line);
    }
    lines
}

/// Wraps editable text between characters only, so the wrapping of any
/// prefix is a prefix of the wrapping and the cursor can be placed exactly.
pub fn wrap_chars(text: &str, columns: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    let mut used = 0;
    for c in text.chars() {
        if c == '\n' {
            lines.push(String::new());
            used = 0;
            continue;
        }
        let w = char_width(c);
        if used + w > columns {
            lines.push(String::new());
            used = 0;
        }
        if let Some(line) = lines.last_mut() {
            line.push(c);
        }
        used += w;
    }
    lines
}

/// The line and column where the cursor after `before` sits, in text
/// wrapped by [`wrap_chars`] to `columns`.
pub fn cursor_at(before: &str, columns: usize) -> (usize, usize) {
    let lines = wrap_chars(before, columns);
    let line = lines.len() - 1;
    let column = lines.last().map_or(0, |l| width(l));
    if column >= columns {
        (line + 1, 0)
    } else {
        (line, column)
    }
}

/// A text being typed, with a cursor (a byte offset on a char boundary).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Editor {
    /// The cursor's byte offset.
    pub cursor: usize,
}

impl Editor {
    /// Puts the cursor at the end of `text`.
    pub fn at_end(text: &str) -> Self {
        Self { cursor: text.len() }
    }

    fn clamp(&mut self, text: &str) {
        self.cursor = self.cursor.min(text.len());
        while !text.is_char_boundary(self.cursor) {
            self.cursor -= 1;
        }
    }

    /// Types `c` at the cursor.
    pub fn insert(&mut self, text: &mut String, c: char) {
        self.clamp(text);
        text.insert(self.cursor, c);
        self.cursor += c.len_utf8();
    }

    /// Deletes the character before the cursor.
    pub fn backspace(&mut self, text: &mut String) {
        self.clamp(text);
        if let Some(c) = text[..self.cursor].chars().next_back() {
            self.cursor -= c.len_utf8();
            text.remove(self.cursor);
        }
    }

    /// Deletes the character after the cursor.
    pub fn delete(&mut self, text: &mut String) {
        self.clamp(text);
        if self.cursor < text.len() {
            text.remove(self.cursor);
        }
    }

    /// Moves one character left.
    pub fn left(&mut self, text: &str) {
        self.clamp(text);
        if let Some(c) = text[..self.cursor].chars().next_back() {
            self.cursor -= c.len_utf8();
        }
    }

    /// Moves one character right.
    pub fn right(&mut self, text: &str) {
        self.clamp(text);
        if let Some(c) = text[self.cursor..].chars().next() {
            self.cursor += c.len_utf8();
        }
    }

    /// Moves to the start of the line.
    pub fn home(&mut self, text: &str) {
        self.clamp(text);
        self.cursor = text[..self.cursor].rfind('\n').map_or(0, |at| at + 1);
    }

    /// Moves to the end of the line.
    pub fn end(&mut self, text: &str) {
        self.clamp(text);
        self.cursor += text[self.cursor..]
            .find('\n')
            .unwrap_or(text.len() - self.cursor);
    }

    /// The cursor's line and column (in display columns).
    pub fn position(&self, text: &str) -> (usize, usize) {
        let before = &text[..self.cursor.min(text.len())];
        let line = before.matches('\n').count();
        let start = before.rfind('\n').map_or(0, |at| at + 1);
        (line, width(&before[start..]))
    }

    /// Moves to the same column of the previous (`up`) or next line.
    pub fn vertical(&mut self, text: &str, up: bool) {
        self.clamp(text);
        let (line, column) = self.position(text);
        let target = if up {
            match line.checked_sub(1) {
                Some(l) => l,
                None => return,
            }
        } else {
            line + 1
        };
        let Some(start) = line_start(text, target) else {
            return;
        };
        let mut at = start;
        let mut used = 0;
        for c in text[start..].chars() {
            if c == '\n' || used + char_width(c) > column {
                break;
            }
            used += char_width(c);
            at += c.len_utf8();
        }
        self.cursor = at;
    }
}

fn line_start(text: &str, line: usize) -> Option<usize> {
    if line == 0 {
        return Some(0);
    }
    text.match_indices('\n').nth(line - 1).map(|(at, _)| at + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_at_spaces_and_inside_cjk_by_columns() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("数据库选择", 4), ["数据", "库选", "择"]);
        assert_eq!(wrap("a\n\nb", 10), ["a", "", "b"]);
        assert_eq!(wrap("🎉🎉🎉", 5), ["🎉🎉", "🎉"]);
    }

    #[test]
    fn editable_text_wraps_between_characters_and_the_cursor_follows() {
        assert_eq!(wrap_chars("ab cd", 3), ["ab ", "cd"]);
        assert_eq!(wrap_chars("日本語", 4), ["日本", "語"]);
        assert_eq!(cursor_at("ab", 3), (0, 2));
        assert_eq!(
            cursor_at("abc", 3),
            (1, 0),
            "a full line puts the cursor on the next"
        );
        assert_eq!(cursor_at("a\nb", 3), (1, 1));
    }

    #[test]
    fn the_editor_moves_by_characters_and_lines() {
        let mut text = String::new();
        let mut editor = Editor::default();
        for c in "日本\nab".chars() {
            editor.insert(&mut text, c);
        }
        assert_eq!(editor.position(&text), (1, 2));
        editor.vertical(&text, true);
        assert_eq!(editor.position(&text), (0, 2));
        editor.backspace(&mut text);
        assert_eq!(text, "本\nab");
        editor.end(&text);
        editor.insert(&mut text, '!');
        assert_eq!(text, "本!\nab");
        editor.vertical(&text, false);
        editor.delete(&mut text);
        assert_eq!(text, "本!\nab");
        editor.home(&text);
        editor.delete(&mut text);
        assert_eq!(text, "本!\nb");
    }
}
