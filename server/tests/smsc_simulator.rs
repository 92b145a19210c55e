//! The SMSC simulator over real TCP on loopback, with rusmpp's codec as the ESME.

use std::str::FromStr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use rusmpp::pdus::{BindTransceiver, DeliverSm, SubmitSm};
use rusmpp::tlvs::{TlvTag, TlvValue};
use rusmpp::tokio_codec::CommandCodec;
use rusmpp::types::{COctetString, OctetString};
use rusmpp::values::{EsmClass, MessageState, RegisteredDelivery};
use rusmpp::{Command, CommandId, CommandStatus, Pdu};
use serde_json::{Value, json};
use texto_server::smsc::{Simulator, SmscConfig, start};
use tokio::net::TcpStream;
use tokio_util::codec::Framed;

type Esme = Framed<TcpStream, CommandCodec>;

const WAIT: Duration = Duration::from_secs(5);

async fn simulator() -> Simulator {
    start(SmscConfig {
        smpp_addr: "127.0.0.1:0".parse().unwrap(),
        http_addr: "127.0.0.1:0".parse().unwrap(),
        system_id: "texto".into(),
        password: "secret".into(),
        dlr_delay_ms: 50,
    })
    .await
    .unwrap()
}

async fn next(esme: &mut Esme) -> Command {
    tokio::time::timeout(WAIT, esme.next()).await.expect("a PDU in time").expect("open").expect("decodes")
}

/// `GET path` on the simulator's HTTP face, as JSON.
async fn get_json(simulator: &Simulator, path: &str) -> Value {
    let url = format!("http://{}{path}", simulator.http_addr);
    reqwest::get(url).await.unwrap().json().await.unwrap()
}

/// `POST path` with `body` on the simulator's HTTP face; the HTTP status.
async fn post_json(simulator: &Simulator, path: &str, body: Value) -> u16 {
    let url = format!("http://{}{path}", simulator.http_addr);
    reqwest::Client::new().post(url).json(&body).send().await.unwrap().status().as_u16()
}

async fn bind(simulator: &Simulator, password: &str) -> (Esme, CommandStatus) {
    let pdu = BindTransceiver::builder()
        .system_id(COctetString::from_str("texto").unwrap())
        .password(COctetString::from_str(password).unwrap())
        .build();
    bind_as(simulator, pdu, CommandId::BindTransceiverResp).await
}

/// Connects and sends `pdu` (a bind of any kind); the answer must be `answer`.
async fn bind_as(simulator: &Simulator, pdu: impl Into<Pdu>, answer: CommandId) -> (Esme, CommandStatus) {
    let stream = TcpStream::connect(simulator.smpp_addr).await.unwrap();
    let mut esme = Framed::new(stream, CommandCodec::new());
    esme.send(Command::new(CommandStatus::EsmeRok, 1, pdu)).await.unwrap();
    let resp = next(&mut esme).await;
    assert_eq!(resp.id(), answer);
    assert_eq!(resp.sequence_number(), 1);
    (esme, resp.status())
}

async fn submit(
    esme: &mut Esme,
    sequence: u32,
    destination: &str,
    esm_class: u8,
    data_coding: u8,
    message: &[u8],
) -> Command {
    let pdu = SubmitSm::builder()
        .source_addr(COctetString::from_str("36180").unwrap())
        .destination_addr(COctetString::from_str(destination).unwrap())
        .esm_class(EsmClass::from(esm_class))
        .registered_delivery(RegisteredDelivery::from(1))
        .data_coding(data_coding.into())
        .short_message(OctetString::from_slice(message).unwrap())
        .build();
    esme.send(Command::new(CommandStatus::EsmeRok, sequence, pdu)).await.unwrap();
    let resp = next(esme).await;
    assert_eq!(resp.id(), CommandId::SubmitSmResp);
    assert_eq!(resp.sequence_number(), sequence);
    resp
}

fn message_id(resp: &Command) -> String {
    match resp.pdu() {
        Some(Pdu::SubmitSmResp(r)) => r.message_id().as_str().to_owned(),
        other => panic!("not a submit_sm_resp: {other:?}"),
    }
}

/// Waits for the next deliver_sm, answers it, and returns it.
async fn deliver(esme: &mut Esme) -> DeliverSm {
    let command = next(esme).await;
    let Some(Pdu::DeliverSm(deliver)) = command.pdu() else { panic!("not a deliver_sm: {command:?}") };
    let resp = Command::new(CommandStatus::EsmeRok, command.sequence_number(), Pdu::DeliverSmResp(Default::default()));
    esme.send(resp).await.unwrap();
    deliver.clone()
}

fn receipted_id(deliver: &DeliverSm) -> String {
    deliver
        .tlvs()
        .iter()
        .find(|tlv| tlv.tag() == TlvTag::ReceiptedMessageId)
        .and_then(|tlv| match tlv.value() {
            Some(TlvValue::ReceiptedMessageId(id)) => Some(id.as_str().to_owned()),
            _ => None,
        })
        .expect("receipted_message_id")
}

fn message_state(deliver: &DeliverSm) -> MessageState {
    deliver
        .tlvs()
        .iter()
        .find_map(|tlv| match tlv.value() {
            Some(TlvValue::MessageState(state)) => Some(*state),
            _ => None,
        })
        .expect("message_state")
}

fn text(deliver: &DeliverSm) -> String {
    String::from_utf8(deliver.short_message().as_ref().to_vec()).unwrap()
}

#[tokio::test]
async fn bad_credentials_are_refused() {
    let simulator = simulator().await;
    let (_, status) = bind(&simulator, "wrong").await;
    assert_eq!(status, CommandStatus::EsmeRbindfail);
}

#[tokio::test]
async fn submits_get_ids_and_receipts_by_destination() {
    let simulator = simulator().await;
    let (mut esme, status) = bind(&simulator, "secret").await;
    assert_eq!(status, CommandStatus::EsmeRok);

    esme.send(Command::new(CommandStatus::EsmeRok, 2, Pdu::EnquireLink)).await.unwrap();
    let resp = next(&mut esme).await;
    assert_eq!((resp.id(), resp.sequence_number()), (CommandId::EnquireLinkResp, 2));

    let resp = submit(&mut esme, 3, "33612345678", 0, 0, b"Bonjour").await;
    assert_eq!(resp.status(), CommandStatus::EsmeRok);
    let id = message_id(&resp);
    assert!(!id.is_empty());
    let receipt = deliver(&mut esme).await;
    assert_eq!(u8::from(receipt.esm_class), 0x04);
    assert_eq!(receipted_id(&receipt), id);
    assert_eq!(message_state(&receipt), MessageState::Delivered);
    let body = text(&receipt);
    assert!(body.starts_with(&format!("id:{id} sub:001 dlvrd:001 submit date:")), "{body}");
    assert!(body.contains(" stat:DELIVRD err:000 text:Bonjour"), "{body}");

    let resp = submit(&mut esme, 4, "33612345600", 0, 0, b"Hi").await;
    let id = message_id(&resp);
    let receipt = deliver(&mut esme).await;
    assert_eq!(receipted_id(&receipt), id);
    assert!(text(&receipt).contains(" stat:UNDELIV err:001 "), "{}", text(&receipt));
    assert_eq!(message_state(&receipt), MessageState::Undeliverable);

    // Two UCS-2 parts with a UDH: one receipt per part, one message in the log.
    let ucs2 = |s: &str| s.encode_utf16().flat_map(u16::to_be_bytes).collect::<Vec<u8>>();
    let mut first = vec![5, 0, 3, 42, 2, 1];
    first.extend(ucs2("Привет "));
    let mut second = vec![5, 0, 3, 42, 2, 2];
    second.extend(ucs2("мир"));
    let id1 = message_id(&submit(&mut esme, 5, "33698765432", 0x40, 8, &first).await);
    let id2 = message_id(&submit(&mut esme, 6, "33698765432", 0x40, 8, &second).await);
    assert_ne!(id1, id2);
    let mut receipted = vec![receipted_id(&deliver(&mut esme).await), receipted_id(&deliver(&mut esme).await)];
    receipted.sort();
    let mut expected = vec![id1.clone(), id2];
    expected.sort();
    assert_eq!(receipted, expected);

    let listed = get_json(&simulator, "/messages?destination=33698765432&limit=5").await;
    let messages = listed["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{listed}");
    assert_eq!(messages[0]["message_id"], json!(id1));
    assert_eq!(messages[0]["parts"], json!(2));
    assert_eq!(messages[0]["data_coding"], json!(8));
    assert_eq!(messages[0]["text"], json!("Привет мир"));
    assert_eq!(messages[0]["source_addr"], json!("36180"));
    let all = get_json(&simulator, "/messages").await;
    assert_eq!(all["messages"].as_array().unwrap().len(), 3);

    // A reply from a handset.
    let mo = post_json(&simulator, "/mo", json!({"from": "33612345678", "text": "STOP"})).await;
    assert_eq!(mo, 200);
    let reply = deliver(&mut esme).await;
    assert_eq!(u8::from(reply.esm_class), 0);
    assert_eq!(reply.source_addr.as_str(), "33612345678");
    assert_eq!(reply.destination_addr.as_str(), "36180");
    assert_eq!(text(&reply), "STOP");

    // Throttling.
    let outage = post_json(&simulator, "/outage", json!({"seconds": 30, "mode": "throttle"})).await;
    assert_eq!(outage, 200);
    let resp = submit(&mut esme, 7, "33612345678", 0, 0, b"later").await;
    assert_eq!(resp.status(), CommandStatus::EsmeRthrottled);

    esme.send(Command::new(CommandStatus::EsmeRok, 8, Pdu::Unbind)).await.unwrap();
    assert_eq!(next(&mut esme).await.id(), CommandId::UnbindResp);
    let closed = tokio::time::timeout(WAIT, esme.next()).await.unwrap();
    assert!(closed.is_none(), "{closed:?}");
}

#[tokio::test]
async fn mo_without_a_bind_is_a_conflict_and_disconnect_drops_binds() {
    let simulator = simulator().await;
    let mo = post_json(&simulator, "/mo", json!({"from": "33612345678", "text": "STOP"})).await;
    assert_eq!(mo, 409);

    let (mut esme, status) = bind(&simulator, "secret").await;
    assert_eq!(status, CommandStatus::EsmeRok);
    let outage = post_json(&simulator, "/outage", json!({"seconds": 30, "mode": "disconnect"})).await;
    assert_eq!(outage, 200);
    let closed = tokio::time::timeout(WAIT, esme.next()).await.unwrap();
    assert!(closed.is_none_or(|r| r.is_err()));
    // New connections are closed right after accept.
    let mut again = Framed::new(TcpStream::connect(simulator.smpp_addr).await.unwrap(), CommandCodec::new());
    let _ = again.send(Command::new(CommandStatus::EsmeRok, 1, Pdu::EnquireLink)).await;
    let closed = tokio::time::timeout(WAIT, again.next()).await.unwrap();
    assert!(closed.is_none_or(|r| r.is_err()));
}

#[tokio::test]
async fn a_transmitter_s_receipts_reach_a_receiver_bind_and_unknown_requests_are_nacked() {
    let simulator = simulator().await;
    let transmitter_pdu = rusmpp::pdus::BindTransmitter::builder()
        .system_id(COctetString::from_str("texto").unwrap())
        .password(COctetString::from_str("secret").unwrap())
        .build();
    let (mut transmitter, status) = bind_as(&simulator, transmitter_pdu, CommandId::BindTransmitterResp).await;
    assert_eq!(status, CommandStatus::EsmeRok);
    let receiver_pdu = rusmpp::pdus::BindReceiver::builder()
        .system_id(COctetString::from_str("texto").unwrap())
        .password(COctetString::from_str("secret").unwrap())
        .build();
    let (mut receiver, status) = bind_as(&simulator, receiver_pdu, CommandId::BindReceiverResp).await;
    assert_eq!(status, CommandStatus::EsmeRok);

    let id = message_id(&submit(&mut transmitter, 2, "33612345698", 0, 0, b"late").await);
    let receipt = deliver(&mut receiver).await;
    assert_eq!(receipted_id(&receipt), id);
    assert_eq!(message_state(&receipt), MessageState::Expired);
    assert!(text(&receipt).contains(" stat:EXPIRED "), "{}", text(&receipt));

    transmitter.send(Command::new(CommandStatus::EsmeRok, 3, Pdu::QuerySm(Default::default()))).await.unwrap();
    let nack = next(&mut transmitter).await;
    assert_eq!(
        (nack.id(), nack.status(), nack.sequence_number()),
        (CommandId::GenericNack, CommandStatus::EsmeRinvcmdid, 3)
    );
}
