//! The web app's logic in the browser (wasm-pack test --headless --chrome web): the CSV
//! importer, the draft kept in localStorage, smart encoding in the draft and formatting.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::{GetUntracked, Owner, WithUntracked};
use texto_core::Role;
use texto_web::{
    draft::Draft,
    format,
    i18n::Lang,
    import::{CsvFile, ImportSettings, Importer, decode_text, rejected_csv},
    session::{SignedIn, provide_session},
};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn settings(phone_column: usize, has_header: bool) -> ImportSettings {
    ImportSettings {
        phone_column,
        info_columns: [Some(0), None, None, None],
        has_header,
        default_country: "FR".into(),
        card: Default::default(),
    }
}

fn import_all(bytes: &[u8], settings: ImportSettings) -> Importer {
    let mut importer = Importer::new(CsvFile::read(bytes).expect("a CSV"), settings);
    while !importer.step(2) {}
    importer
}

#[wasm_bindgen_test]
fn windows_1252_and_utf8_with_bom_read_the_same() {
    let cp1252 = b"Nom;Mobile\r\nM\xfcller;0612345678\r\n";
    let utf8_bom = "\u{feff}Nom;Mobile\r\nMüller;0612345678\r\n".as_bytes();
    assert_eq!(decode_text(cp1252), "Nom;Mobile\r\nMüller;0612345678\r\n");
    assert_eq!(decode_text(utf8_bom), decode_text(cp1252));
}

#[wasm_bindgen_test]
fn the_delimiter_phone_column_and_header_are_guessed() {
    let semicolons = CsvFile::read(b"Nom;Ville;Mobile\nDupont;Paris;06 12 34 56 78\nMartin;Lyon;0612345679\n").unwrap();
    assert_eq!(semicolons.delimiter, b';');
    assert_eq!(semicolons.guess_phone_column("FR"), 2);
    assert!(semicolons.guess_header(2));
    let commas = CsvFile::read(b"33612345678,Dupont\n33612345679,Martin\n").unwrap();
    assert_eq!(commas.delimiter, b',');
    assert_eq!(commas.guess_phone_column("FR"), 0);
    assert!(!commas.guess_header(0), "no header when the first row holds a number");
    // Dates have 8 digits too: the column of numbers wins even when some of its cells are bad.
    let dates = CsvFile::read(
        b"Nom;Naissance;Mobile\nDupont;1980-04-12;06 12 34 56 78\nMartin;1975-11-02;06 12\nLeroy;1990-01-30;n/a\n",
    )
    .unwrap();
    assert_eq!(dates.guess_phone_column("FR"), 2);
    assert!(dates.guess_header(2));
}

#[wasm_bindgen_test]
fn national_numbers_take_the_default_country_and_bad_rows_are_reported_with_their_line() {
    let file = "Nom;Mobile\nDupont;06 12 34 56 78\nMüller;+33 (0)6.12.34.56.79\nFaux;12\nVide;\n\n\"Point; virgule\";0761234567\n";
    let importer = import_all(file.as_bytes(), settings(1, true));
    let numbers: Vec<&str> = importer.contacts.iter().map(|c| c.number.as_str()).collect();
    assert_eq!(numbers, ["33612345678", "33612345679", "33761234567"]);
    assert_eq!(importer.contacts[2].info[0], "Point; virgule", "quoted cells keep their delimiter");
    let rejected: Vec<(usize, &str)> = importer.rejected.iter().map(|r| (r.row, r.value.as_str())).collect();
    assert_eq!(rejected, [(4, "12"), (5, "")]);
    let report = rejected_csv(&importer.rejected);
    assert!(report.starts_with("row;value;reason\n4;12;"), "{report}");
}

#[wasm_bindgen_test]
fn the_rejected_rows_report_runs_no_formula_in_a_spreadsheet() {
    let file = "Mobile\n=1+2\n@SUM(A1)\n-5\n";
    let importer = import_all(file.as_bytes(), settings(0, true));
    let report = rejected_csv(&importer.rejected);
    let values: Vec<&str> = report.lines().skip(1).map(|line| line.split(';').nth(1).unwrap_or_default()).collect();
    assert_eq!(values, ["'=1+2", "'@SUM(A1)", "'-5"], "{report}");
}

#[wasm_bindgen_test]
fn a_hundred_thousand_rows_import_in_chunks() {
    let mut file = String::from("Mobile\n");
    for i in 0..100_000 {
        file.push_str(&format!("06{:08}\n", 10_000_000 + i));
    }
    let mut importer = Importer::new(CsvFile::read(file.as_bytes()).unwrap(), settings(0, true));
    let mut chunks = 0;
    while !importer.step(4_000) {
        chunks += 1;
        assert!(importer.rows_read() <= chunks * 4_000);
    }
    assert_eq!(chunks, 25);
    assert_eq!(importer.contacts.len(), 100_000);
    assert!(importer.rejected.is_empty());
}

#[wasm_bindgen_test]
fn the_draft_becomes_the_request_and_reads_back_from_it() {
    let mut draft = Draft {
        pasted: "0612345678, +33 6 12 34 56 79\nabc".into(),
        send_at: "2026-12-24T09:30".into(),
        marketing: true,
        validity: "90".into(),
        ..Draft::default()
    };
    draft.set_text("Soldes".into());
    draft.insert_link(6);
    draft.links[0] = "https://example.com".into();
    assert_eq!(draft.text, "Soldes<-short->");
    let request = draft.request();
    assert_eq!(request.message.delay.as_deref(), Some("2026-12-24 09:30:00"));
    assert_eq!(request.message.links, Some(vec!["https://example.com".to_owned()]));
    let numbers: Vec<String> =
        request.recipients.clone().unwrap().gsm.into_iter().map(|g| g.value.into_owned()).collect();
    assert_eq!(numbers, ["33612345678", "33612345679", "abc"], "invalid numbers stay as typed for the filter to count");

    // A draft kept on the server opens as it was written, numbers in international form.
    let opened = Draft::from_request(&request, "42".into());
    assert_eq!(opened.saved_as.as_deref(), Some("42"));
    assert_eq!(
        (opened.text.as_str(), opened.send_at.as_str(), opened.validity.as_str()),
        ("Soldes<-short->", "2026-12-24T09:30", "90")
    );
    assert!(opened.marketing && !opened.to_lists);
    assert_eq!(opened.links, ["https://example.com"]);
    assert_eq!(opened.request(), request, "the same request again");

    // What Compose has no field for goes back as it came: client ids, unicode, UTM tags.
    let mut from_api = request.clone();
    if let Some(recipients) = from_api.recipients.as_mut() {
        recipients.gsm[0].gsmsmsid = Some("commande-42".into());
    }
    from_api.message.unicode = Some(true);
    let reopened = Draft::from_request(&from_api, "43".into());
    assert_eq!(reopened.request(), from_api);
}

#[wasm_bindgen_test]
fn removing_a_marker_drops_its_link() {
    let mut draft = Draft::default();
    draft.set_text("a <-short-> b <-short->".into());
    assert_eq!(draft.links.len(), 2);
    draft.set_text("a <-short-> b".into());
    assert_eq!(draft.links.len(), 1);
}

#[wasm_bindgen_test]
fn smart_encoding_keeps_the_text_as_typed_and_asks_the_server_for_gsm() {
    let mut draft = Draft { gsm: true, validity: " 90 ".into(), ..Draft::default() };
    draft.set_text("« L’été — ça… »".into());
    assert_eq!(draft.sent_text(), "\" L'été - ca... \"");
    assert_eq!(draft.text, "« L’été — ça… »", "the text stays as typed");
    let message = draft.request().message;
    assert_eq!((message.encoding.as_deref(), message.validity), (Some("gsm"), Some(90)));
    let plain = Draft { gsm: false, validity: "soon".into(), ..draft };
    assert_eq!(plain.sent_text(), "« L’été — ça… »");
    let message = plain.request().message;
    assert_eq!(
        (message.encoding, message.validity),
        (None, Some(0)),
        "a validity that is not a number is refused by the server's bounds"
    );
}

#[wasm_bindgen_test]
fn numbers_money_and_dates_follow_the_language() {
    assert_eq!(format::integer(Lang::En, 1_234_567), "1,234,567");
    assert_eq!(format::integer(Lang::Fr, 12_345), "12\u{202f}345");
    assert_eq!(format::credits(Lang::Fr, 12_345.5), "12\u{202f}345,50");
    assert_eq!(format::credits(Lang::En, 998.0), "998");
    assert_eq!(format::credits(Lang::En, -0.25), "-0.25");
    assert_eq!(format::wire_date(Lang::Fr, "2026-11-22 14:30:00"), "22/11/2026 14:30");
    assert_eq!(format::wire_date(Lang::En, "2026-11-22 14:30:00"), "22 Nov 2026, 14:30");
    let now = chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap();
    assert_eq!(format::time_until(Lang::En, now, now + chrono::Duration::minutes(190)), "in 3 h 10 min");
    assert_eq!(format::time_until(Lang::Fr, now, now + chrono::Duration::minutes(5)), "dans 5 min");
}

#[wasm_bindgen_test]
fn a_second_refused_call_leaves_the_message_that_the_session_ended() {
    Owner::new().with(|| {
        let session = provide_session();
        let who = SignedIn { actor: "demo".into(), role: Role::Owner, csrf: "x".into(), two_factor_required: false };
        session.sign_in(who);
        // The header's balance and the page's list were both in flight when the token was revoked.
        session.expire();
        session.expire();
        assert!(session.signed_in.with_untracked(Option::is_none));
        assert!(session.expired.get_untracked(), "sign-in still says why it shows");
    });
}
