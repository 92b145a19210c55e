//! French and English: the language signal, its persistence, and every fixed text of the app.
//!
//! Each text is written once per language, side by side in [`texts`], so a text cannot exist in
//! one language only. Texts with figures in them are functions in [`crate::format`].

mod texts;

pub(crate) use texts::texts as define_texts;

use leptos::prelude::*;

pub use texts::Texts;

use crate::storage;

/// The app's languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// French (the default for a French browser).
    Fr,
}

impl Lang {
    /// The BCP 47 tag `<html lang>` carries.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language of a tag (`fr`, `fr-FR`, `en-GB`); English for anything but French.
    pub fn from_tag(tag: &str) -> Lang {
        if tag.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("fr")) { Lang::Fr } else { Lang::En }
    }

    /// The fixed texts in this language.
    pub fn texts(self) -> &'static Texts {
        match self {
            Lang::En => &texts::EN,
            Lang::Fr => &texts::FR,
        }
    }
}

const STORAGE_KEY: &str = "texto.lang";

/// The remembered language, else the browser's, else English.
fn initial() -> Lang {
    if let Some(saved) = storage::get(STORAGE_KEY) {
        return Lang::from_tag(&saved);
    }
    let browser = web_sys::window().and_then(|w| w.navigator().language()).unwrap_or_default();
    Lang::from_tag(&browser)
}

/// Provides the language signal; remembers each change and keeps `<html lang>` in step.
pub fn provide_lang() -> RwSignal<Lang> {
    let lang = RwSignal::new(initial());
    Effect::new(move |_| {
        let lang = lang.get();
        storage::set(STORAGE_KEY, lang.tag());
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let _ = root.set_attribute("lang", lang.tag());
        }
    });
    provide_context(lang);
    lang
}

/// The language signal provided by [`provide_lang`].
pub fn use_lang() -> RwSignal<Lang> {
    expect_context::<RwSignal<Lang>>()
}

/// A reactive accessor of the current texts: `t().compose` inside a view updates with the language.
pub fn use_texts() -> impl Fn() -> &'static Texts + Copy + Send + Sync + 'static {
    let lang = use_lang();
    move || lang.get().texts()
}
