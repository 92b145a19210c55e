//! What the sections of Settings that edit `/settings` share: reading the settings once to
//! show them, and saving the fields a section changes (the others left out, so kept) with the
//! answer shown again.

use leptos::{prelude::*, task::spawn_local};
use texto_core::wire::{SettingsDto, SettingsRequest, SettingsResponse};

use crate::api::{Api, ApiError, use_api};

/// A section's state: read yet, the last refusal, saved.
#[derive(Clone, Copy)]
pub struct SettingsForm {
    /// The settings were read (the fields are enabled then).
    pub loaded: RwSignal<bool>,
    /// What the server refused in the last save.
    pub error: RwSignal<Option<ApiError>>,
    /// The last save went through.
    pub saved: RwSignal<bool>,
    /// Fills the section's fields from the settings.
    show: Callback<SettingsDto>,
    /// The session's client, taken when the section is set up (not in a handler).
    api: Api,
}

impl SettingsForm {
    /// Reads the settings and fills the section with `show`.
    pub fn load(show: impl Fn(SettingsDto) + Send + Sync + 'static) -> SettingsForm {
        let form = SettingsForm {
            loaded: RwSignal::new(false),
            error: RwSignal::new(None),
            saved: RwSignal::new(false),
            show: Callback::new(show),
            api: use_api(),
        };
        spawn_local(async move {
            if let Ok(answer) = form.api.get::<SettingsResponse>("/settings").await {
                form.show.run(answer.settings);
            }
            form.loaded.set(true);
        });
        form
    }

    /// Saves the fields `settings` names (`PUT /settings`) and shows the settings now in force.
    pub fn save(self, settings: SettingsDto) {
        self.saved.set(false);
        spawn_local(async move {
            match self.api.put::<_, SettingsResponse>("/settings", &SettingsRequest { settings }).await {
                Ok(answer) => {
                    self.error.set(None);
                    self.saved.set(true);
                    self.show.run(answer.settings);
                }
                Err(e) => self.error.set(Some(e)),
            }
        });
    }
}
