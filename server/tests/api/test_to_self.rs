//! A person's own mobile number (`PUT /me`): a test send that names no number goes to it.

use reqwest::Method;
use serde_json::json;
use texto_core::Role;

use crate::{
    delivery::{quick_app, received, until},
    team::{PASSWORD, as_session, person, sign_in},
};

#[tokio::test]
async fn a_test_naming_no_number_goes_to_the_person_s_own() {
    let app = quick_app().await;
    person(&app, "alice", "lea@alice.example", Role::Sender).await;
    let lea = sign_in(&app, "lea@alice.example", PASSWORD).await.expect("signed in");
    let draft = json!({"sms": {"message": {"text": "Vente privée", "pushtype": "alert"},
        "recipients": {"gsm": [{"value": "33612345951"}]}}});
    let (status, saved) = as_session(&app, &lea, Method::POST, "/campaign/draft", Some(draft), true).await;
    assert_eq!(status, 200, "{saved}");
    let test = format!("/campaign/{}/test", saved["draft"]["id"].as_str().expect("an id"));

    // No number of one's own yet: the error says what to do.
    let (status, refused) = as_session(&app, &lea, Method::POST, &test, Some(json!({"numbers": []})), true).await;
    assert_eq!((status, refused["errors"][0]["path"].as_str()), (422, Some("numbers")), "{refused}");

    for (typed, path) in [("0612", "me.phone"), ("hello", "me.phone")] {
        let (status, refused) =
            as_session(&app, &lea, Method::PUT, "/me", Some(json!({"me": {"phone": typed}})), true).await;
        assert_eq!((status, refused["errors"][0]["path"].as_str()), (422, Some(path)), "{typed}: {refused}");
    }
    let (status, me) =
        as_session(&app, &lea, Method::PUT, "/me", Some(json!({"me": {"phone": "+33 6 12 34 59 52"}})), true).await;
    assert_eq!((status, me["user"]["phone"].as_str()), (200, Some("33612345952")), "{me}");
    // The team does not see it.
    let (_, users) = app.json(Method::GET, "/users", None).await;
    assert!(!users.to_string().contains("33612345952"), "{users}");

    let (status, tested) = as_session(&app, &lea, Method::POST, &test, Some(json!({"numbers": []})), true).await;
    assert_eq!(status, 200, "{tested}");
    let message = until("the test", || async { received(&app, "33612345952").await.into_iter().next() }).await;
    assert_eq!(message["text"], "Vente privée");

    // A token has no profile: it names its numbers.
    let (status, _) = app.json(Method::POST, &test, Some(json!({"numbers": []}))).await;
    assert_eq!(status, 422);
    let (status, cleared) = as_session(&app, &lea, Method::PUT, "/me", Some(json!({"me": {"phone": ""}})), true).await;
    assert_eq!((status, cleared["user"].get("phone")), (200, None), "{cleared}");
}
