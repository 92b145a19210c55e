//! What an imported row says about its contact beyond the number: names, tags, custom fields
//! and consent, from the columns the user mapped (`contact` of a list entry, recorded by the
//! server with the list).

use std::collections::BTreeMap;

use texto_core::{
    is_custom_field_name,
    wire::{ConsentDto, ContactCardDto},
};

/// The columns that fill the contact, and the consent the whole file carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardColumns {
    /// The first name's column.
    pub firstname: Option<usize>,
    /// The last name's column.
    pub lastname: Option<usize>,
    /// The tags' column (several tags separated by `,`, `;` or `|`).
    pub tags: Option<usize>,
    /// Custom fields: a column and the field's name.
    pub fields: Vec<(usize, String)>,
    /// The people in the file agreed to receive texts: how, and the proof.
    pub consent: Option<FileConsent>,
}

/// The consent a file carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileConsent {
    /// `import` or `form`.
    pub source: String,
    /// What they agreed to, and how.
    pub proof: String,
    /// The column with the date they agreed (`Y-m-d` or `Y-m-d H:i:s`); none: today.
    pub date: Option<usize>,
}

impl CardColumns {
    /// Whether anything is mapped.
    pub fn is_empty(&self) -> bool {
        *self == CardColumns::default()
    }

    /// The contact a row describes (`cell` reads a column of the row), if anything is mapped.
    pub fn card(&self, cell: impl Fn(usize) -> String) -> Option<ContactCardDto> {
        if self.is_empty() {
            return None;
        }
        let tags = self.tags.map(|column| {
            cell(column).split([',', ';', '|']).map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect()
        });
        let fields: BTreeMap<String, String> = self
            .fields
            .iter()
            .map(|(column, name)| (name.clone(), cell(*column)))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        let consent = self.consent.as_ref().map(|consent| ConsentDto {
            opt_in_date: consent.date.map(&cell).filter(|d| !d.is_empty()),
            source: Some(consent.source.clone()),
            proof: Some(consent.proof.clone()).filter(|p| !p.is_empty()),
            ..ConsentDto::default()
        });
        Some(ContactCardDto {
            firstname: self.firstname.map(&cell),
            lastname: self.lastname.map(&cell),
            fields: (!fields.is_empty()).then_some(fields),
            tags,
            consent,
            ..ContactCardDto::default()
        })
    }
}

/// A custom field's name from a header cell: lower case, accents dropped, other signs as `_`
/// (`Ville de naissance` → `ville_de_naissance`); `None` when nothing usable is left.
pub fn field_name(header: &str) -> Option<String> {
    let mut name = String::new();
    for c in header.trim().to_lowercase().chars() {
        let plain = match c {
            'à' | 'â' | 'ä' | 'á' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'î' | 'ï' | 'í' => 'i',
            'ô' | 'ö' | 'ó' => 'o',
            'ù' | 'û' | 'ü' | 'ú' => 'u',
            'ç' => 'c',
            c if c.is_ascii_alphanumeric() => c,
            _ => '_',
        };
        if !(plain == '_' && name.ends_with('_')) {
            name.push(plain);
        }
    }
    let name = name.trim_matches('_').chars().take(40).collect::<String>();
    is_custom_field_name(&name).then_some(name)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn headers_become_field_names() {
        assert_eq!(field_name("Ville de naissance").as_deref(), Some("ville_de_naissance"));
        assert_eq!(field_name(" Prénom ").as_deref(), Some("prenom"));
        assert_eq!(field_name("2024 score"), None, "a name starts with a letter");
        assert_eq!(field_name("—"), None);
    }

    #[wasm_bindgen_test]
    fn a_row_fills_names_tags_fields_and_consent() {
        let row = ["33612345678", "Léa", "vip; client", "Lyon", "2026-03-01"];
        let columns = CardColumns {
            firstname: Some(1),
            tags: Some(2),
            fields: vec![(3, "city".into())],
            consent: Some(FileConsent { source: "form".into(), proof: "Case cochée".into(), date: Some(4) }),
            ..CardColumns::default()
        };
        let card = columns.card(|c| row[c].to_owned()).expect("a card");
        assert_eq!(card.firstname.as_deref(), Some("Léa"));
        assert_eq!(card.tags, Some(vec!["vip".to_owned(), "client".to_owned()]));
        assert_eq!(card.fields.and_then(|f| f.get("city").cloned()).as_deref(), Some("Lyon"));
        let consent = card.consent.expect("consent");
        assert_eq!((consent.opt_in_date.as_deref(), consent.source.as_deref()), (Some("2026-03-01"), Some("form")));
        assert_eq!(CardColumns::default().card(|c| row[c].to_owned()), None, "nothing mapped: no card");
    }
}
