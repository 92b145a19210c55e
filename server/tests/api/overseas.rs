//! The marketing window in the recipient's own time: a simulation or a send names each
//! overseas territory's recipients and when their own window opens, in JSON and XML; alerts
//! and campaigns without overseas numbers say nothing of it.

use chrono::Utc;
use reqwest::Method;
use serde_json::{Value, json};
use texto_core::{OpenWindows, Territory, Zone, parse_paris};

use crate::helpers::spawn_app;

fn send_body(pushtype: &str, numbers: &[&str]) -> Value {
    let gsm: Vec<Value> = numbers.iter().map(|n| json!({"value": n})).collect();
    json!({"sms": {"message": {"text": "Soldes d'hiver", "pushtype": pushtype}, "recipients": {"gsm": gsm}}})
}

#[tokio::test]
async fn each_territorys_recipients_are_named_with_when_their_window_opens() {
    let app = spawn_app().await;
    let before = Utc::now() - chrono::TimeDelta::seconds(1);
    let numbers = ["33612345678", "262692123456", "262692123457", "687751234", "596696123456"];
    for path in ["/send/simulate", "/send"] {
        let (status, answer) = app.json(Method::POST, path, Some(send_body("marketing", &numbers))).await;
        assert_eq!(status, 200, "{answer}");
        let parts = answer["overseas"].as_array().expect("the overseas parts");
        let named: Vec<(&str, i64)> =
            parts.iter().map(|p| (p["territory"].as_str().unwrap(), p["recipients"].as_i64().unwrap())).collect();
        assert_eq!(named, [("RE", 2), ("MQ", 1), ("NC", 1)], "{path}: in the territories' order");
        for part in parts {
            let at = parse_paris(part["send_at"].as_str().expect("a time")).expect("Paris time, as delay");
            let territory = Territory::from_iso2(part["territory"].as_str().unwrap()).unwrap();
            assert!(at >= before, "{part}: not before the send");
            assert!(OpenWindows::at(at).contains(Zone::Overseas(territory)), "{part}: inside its own window");
        }
    }
    let (status, alert) = app.json(Method::POST, "/send/simulate", Some(send_body("alert", &numbers))).await;
    assert_eq!(status, 200, "{alert}");
    assert!(alert.get("overseas").is_none(), "alerts go at once everywhere: {alert}");
    let (_, paris) = app.json(Method::POST, "/send/simulate", Some(send_body("marketing", &numbers[..1]))).await;
    assert!(paris.get("overseas").is_none(), "{paris}");

    let xml = "<sms><message><text>Soldes</text><pushtype>marketing</pushtype></message>\
               <recipients><gsm>262639012345</gsm><gsm>33612345678</gsm></recipients></sms>";
    let (status, answer) = app.xml(Method::POST, "/send/simulate", Some(xml)).await;
    assert_eq!(status, 200, "{answer}");
    assert!(
        answer.contains("<overseas><territory>YT</territory><recipients>1</recipients><send_at>"),
        "Mayotte, whose numbers share +262 with La Réunion: {answer}"
    );
}
