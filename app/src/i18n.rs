//! The pages' words ([`askform::i18n`]), and the language of the page
//! being rendered.

pub use askform::i18n::*;

/// The language of the page being rendered (English when none was set).
pub fn use_lang() -> Lang {
    leptos::prelude::use_context::<Lang>().unwrap_or_default()
}
