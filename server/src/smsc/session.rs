//! One SMPP connection: bind, enquire_link, submit_sm (with its receipts later), unbind.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use chrono::Utc;
use futures_util::{SinkExt, StreamExt};
use rusmpp::pdus::{BindReceiverResp, BindTransceiverResp, BindTransmitterResp, DeliverSm, SubmitSm, SubmitSmResp};
use rusmpp::tlvs::MessageDeliveryRequestTlvValue;
use rusmpp::tokio_codec::CommandCodec;
use rusmpp::types::{COctetString, OctetString};
use rusmpp::values::EsmClass;
use rusmpp::{Command, CommandStatus, Pdu};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_util::codec::Framed;

use super::store::Part;
use super::{Bind, Shared, outage::Mode, receipts};
use crate::carrier::sms_text as text;

/// esm_class bit: the short message starts with a user data header.
const UDHI: u8 = 0x40;
/// esm_class of a delivery receipt.
const RECEIPT: u8 = 0x04;

/// Accepts connections for ever; during a disconnect outage each is closed at once.
pub(super) async fn accept(shared: Arc<Shared>, listener: TcpListener) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) => {
                // Out of file descriptors, for instance: wait rather than spin.
                tracing::warn!(%error, "SMPP accept failed");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        if shared.outage.is(Mode::Disconnect) {
            drop(stream);
            continue;
        }
        // Answers go out as soon as written: Nagle's algorithm would hold each small PDU
        // until the ESME's delayed ACK, 40 ms per round trip.
        let _ = stream.set_nodelay(true);
        tokio::spawn(serve(Arc::clone(&shared), stream));
    }
}

/// What a bind may do.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Transmitter,
    Receiver,
    Transceiver,
}

/// Serves one connection until unbind, a closed socket, a bad PDU or a disconnect outage.
async fn serve(shared: Arc<Shared>, stream: TcpStream) {
    let (mut sink, mut incoming) = Framed::new(stream, CommandCodec::new()).split();
    let (outbox, mut queue) = mpsc::unbounded_channel::<Command>();
    let writer = tokio::spawn(async move {
        while let Some(command) = queue.recv().await {
            if sink.send(command).await.is_err() {
                return;
            }
        }
        let _ = sink.close().await;
    });
    let mut drop_binds = shared.outage.subscribe();
    drop_binds.mark_unchanged();
    let mut bind_id = None;
    let dropped = loop {
        let command = tokio::select! {
            _ = drop_binds.changed() => break true,
            next = incoming.next() => match next {
                Some(Ok(command)) => command,
                _ => break false,
            },
        };
        let sequence = command.sequence_number();
        let reply = match command.pdu() {
            Some(Pdu::BindTransmitter(b)) => {
                bind(&shared, &outbox, &mut bind_id, Kind::Transmitter, &b.system_id, &b.password, sequence)
            }
            Some(Pdu::BindReceiver(b)) => {
                bind(&shared, &outbox, &mut bind_id, Kind::Receiver, &b.system_id, &b.password, sequence)
            }
            Some(Pdu::BindTransceiver(b)) => {
                bind(&shared, &outbox, &mut bind_id, Kind::Transceiver, &b.system_id, &b.password, sequence)
            }
            Some(Pdu::EnquireLink) => Command::new(CommandStatus::EsmeRok, sequence, Pdu::EnquireLinkResp),
            Some(Pdu::Unbind) => {
                let _ = outbox.send(Command::new(CommandStatus::EsmeRok, sequence, Pdu::UnbindResp));
                break false;
            }
            Some(Pdu::SubmitSm(submit)) => {
                let status = if bind_id.is_none() {
                    CommandStatus::EsmeRinvbndsts
                } else if shared.outage.is(Mode::Throttle) {
                    CommandStatus::EsmeRthrottled
                } else {
                    CommandStatus::EsmeRok
                };
                let message_id =
                    if status == CommandStatus::EsmeRok { submit_sm(&shared, bind_id, submit) } else { String::new() };
                let id = COctetString::from_str(&message_id).unwrap_or_default();
                Command::new(status, sequence, SubmitSmResp::builder().message_id(id).build())
            }
            Some(Pdu::DeliverSmResp(_)) => {
                if let Some(id) = bind_id {
                    shared.delivered(id, sequence);
                }
                continue;
            }
            // Other answers need nothing back; other requests are not supported.
            _ if command.id().is_response() => continue,
            _ => Command::new(CommandStatus::EsmeRinvcmdid, sequence, Pdu::GenericNack),
        };
        let just_bound = reply.status() == CommandStatus::EsmeRok
            && matches!(reply.pdu(), Some(Pdu::BindReceiverResp(_) | Pdu::BindTransceiverResp(_)));
        if outbox.send(reply).is_err() {
            break false;
        }
        if let (true, Some(id)) = (just_bound, bind_id) {
            shared.flush_waiting(id);
        }
    };
    if let Some(id) = bind_id {
        shared.binds().remove(&id);
        shared.hand_on(id);
    }
    drop(outbox);
    if dropped {
        writer.abort();
    } else {
        let _ = writer.await;
    }
}

/// Answers a bind: OK with the configured credentials (and the bind is registered), ESME_RBINDFAIL otherwise.
#[allow(clippy::too_many_arguments)]
fn bind(
    shared: &Shared,
    outbox: &mpsc::UnboundedSender<Command>,
    bind_id: &mut Option<u64>,
    kind: Kind,
    system_id: &COctetString<1, 16>,
    password: &COctetString<1, 9>,
    sequence: u32,
) -> Command {
    let status = if bind_id.is_some() {
        CommandStatus::EsmeRalybnd
    } else if system_id.as_str() == shared.config.system_id && password.as_str() == shared.config.password {
        let id = shared.next_bind_id.fetch_add(1, Ordering::Relaxed);
        let receives = !matches!(kind, Kind::Transmitter);
        shared.binds().insert(id, Bind { receives, outbox: outbox.clone() });
        *bind_id = Some(id);
        CommandStatus::EsmeRok
    } else {
        CommandStatus::EsmeRbindfail
    };
    let smsc_id = COctetString::from_str("texto-smsc").unwrap_or_default();
    let pdu = match kind {
        Kind::Transmitter => Pdu::BindTransmitterResp(BindTransmitterResp::builder().system_id(smsc_id).build()),
        Kind::Receiver => Pdu::BindReceiverResp(BindReceiverResp::builder().system_id(smsc_id).build()),
        Kind::Transceiver => Pdu::BindTransceiverResp(BindTransceiverResp::builder().system_id(smsc_id).build()),
    };
    Command::new(status, sequence, pdu)
}

/// Records a submitted part and, when its message is complete, schedules one receipt per part
/// to this bind. Returns the part's message_id.
fn submit_sm(shared: &Arc<Shared>, bind: Option<u64>, submit: &SubmitSm) -> String {
    let message_id = shared.message_id();
    let esm_class = u8::from(submit.esm_class);
    let bytes = submit.short_message().as_ref();
    let (concat, payload) = if esm_class & UDHI != 0 { text::split_udh(bytes) } else { (None, bytes) };
    let part = Part {
        message_id: message_id.clone(),
        source_addr: submit.source_addr.as_str().to_owned(),
        destination_addr: submit.destination_addr.as_str().to_owned(),
        data_coding: u8::from(submit.data_coding),
        validity_period: String::from_utf8_lossy(submit.validity_period.as_ref()).trim_end_matches('\0').to_owned(),
        concat,
        payload: payload.to_vec(),
        received_at: Utc::now(),
    };
    let complete = shared.store().add(part);
    if let Some((_, parts)) = complete {
        // To the submitting bind; a transmitter bind cannot take deliver_sm, so its
        // receipts go to a bind that can.
        let shared = Arc::clone(shared);
        tokio::spawn(async move {
            tokio::time::sleep(shared.dlr_delay()).await;
            for part in parts {
                if let Some(receipt) = receipt(&part) {
                    shared.deliver(bind, receipt);
                }
            }
        });
    }
    message_id
}

/// The deliver_sm receipt of one part (from its destination back to its source).
fn receipt(part: &Part) -> Option<Pdu> {
    let outcome = receipts::outcome(&part.destination_addr);
    let excerpt: String = texto_core::decode_short_message(part.data_coding, &part.payload)
        .chars()
        .map(|c| if c.is_ascii() && !c.is_ascii_control() { c } else { '?' })
        .collect();
    let body = receipts::receipt_text(&part.message_id, outcome, part.received_at, Utc::now(), &excerpt);
    let deliver = DeliverSm::builder()
        .source_addr(COctetString::from_str(&part.destination_addr).ok()?)
        .destination_addr(COctetString::from_str(&part.source_addr).ok()?)
        .esm_class(EsmClass::from(RECEIPT))
        .short_message(OctetString::from_slice(body.as_bytes()).ok()?)
        .push_tlv(MessageDeliveryRequestTlvValue::ReceiptedMessageId(COctetString::from_str(&part.message_id).ok()?))
        .push_tlv(MessageDeliveryRequestTlvValue::MessageState(outcome.state))
        .build();
    Some(Pdu::DeliverSm(deliver))
}

/// Why a reply (MO) could not be delivered.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum MoError {
    /// No bind may receive it.
    NotBound,
    /// The number does not fit in a deliver_sm, or the text in 255 parts.
    TooLong,
}

/// The reference of the next concatenated reply (wrapping, as a phone's does).
static NEXT_REFERENCE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(1);

/// Sends a reply from `from` to the default sender over the first bind that receives: GSM
/// 03.38 when the text allows, UCS-2 otherwise, and as concatenated parts with a user data
/// header when it does not fit one, as a phone sends it.
pub(super) fn deliver_mo(shared: &Shared, from: &str, body: &str) -> Result<(), MoError> {
    let reference = NEXT_REFERENCE.fetch_add(1, Ordering::Relaxed);
    let parts = text::wire_parts(body, false, reference).map_err(|_| MoError::TooLong)?;
    let source = COctetString::from_str(from).map_err(|_| MoError::TooLong)?;
    let destination = COctetString::from_str(super::DEFAULT_SENDER).map_err(|_| MoError::TooLong)?;
    let mut delivers = Vec::with_capacity(parts.len());
    for part in parts {
        delivers.push(
            DeliverSm::builder()
                .source_addr(source.clone())
                .destination_addr(destination.clone())
                .esm_class(EsmClass::from(if part.with_header { UDHI } else { 0 }))
                .data_coding(part.data_coding.into())
                .short_message(OctetString::from_vec(part.bytes).map_err(|_| MoError::TooLong)?)
                .build(),
        );
    }
    if !shared.has_receiver() {
        return Err(MoError::NotBound);
    }
    for deliver in delivers {
        shared.deliver(None, Pdu::DeliverSm(deliver));
    }
    Ok(())
}
