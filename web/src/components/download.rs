//! Saving a file the page made or fetched (a CSV export, a contact's data) as a download.

use texto_core::CSV_BOM;
use wasm_bindgen::JsCast;

/// Offers the CSV `text` as a download called `name`, in UTF-8 with a byte order mark (French
/// Excel needs it; a fetched body has lost its own, since `Response.text()` drops it).
pub fn download_csv(name: &str, text: &str) {
    let text = format!("{CSV_BOM}{}", text.trim_start_matches(CSV_BOM));
    download_file(name, "text/csv;charset=utf-8", &text);
}

/// Offers `text` as a download called `name`, of type `mime`.
pub fn download_file(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    let link = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element("a").ok())
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok());
    if let Some(link) = link {
        link.set_href(&url);
        link.set_download(name);
        link.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}
