//! One bind to the SMSC: connect, bind_transceiver, then carry the submitters' submit_sm,
//! answer the SMSC's deliver_sm (once texto has stored them) and enquire_link, keep the link
//! alive with enquire_link, reconnect with backoff when it drops, and unbind on shutdown.

use std::{collections::HashMap, str::FromStr, sync::Arc, time::Duration};

use futures_util::{SinkExt, StreamExt};
use rusmpp::{
    Command, CommandStatus, Pdu,
    pdus::{BindTransceiver, DeliverSm, DeliverSmResp, SubmitSm},
    tlvs::TlvValue,
    tokio_codec::CommandCodec,
    types::COctetString,
    values::InterfaceVersion,
};
use tokio::{
    net::TcpStream,
    sync::{Semaphore, mpsc, oneshot, watch},
    time::{Instant, MissedTickBehavior, interval, sleep, timeout},
};
use tokio_util::{codec::Framed, sync::CancellationToken};

use crate::{
    carrier::{
        CaDir, Delivered, Inbound, SmppTarget,
        receipt::field,
        sms_text,
        tls::{self, SmppStream},
    },
    operator::routing::ConnectorName,
};
use texto_core::DeliveryCode;

/// Seconds between two enquire_link when the link is quiet, and to wait for an answer.
const KEEPALIVE: Duration = Duration::from_secs(30);
const ANSWER_WITHIN: Duration = Duration::from_secs(10);
/// The longest wait between two connection attempts.
const MOST_BACKOFF: Duration = Duration::from_secs(30);

/// A submit_sm for the bind to send, and where its answer goes.
pub(super) struct Request {
    pub(super) submit: SubmitSm,
    pub(super) answer: oneshot::Sender<Command>,
}

/// What submitters see of one bind.
pub(super) struct Link {
    /// Free places in its window of in-flight submits.
    pub(super) window: Arc<Semaphore>,
    /// Whether it is bound now.
    pub(super) bound: watch::Receiver<bool>,
    /// Its queue of submits.
    pub(super) requests: mpsc::Sender<Request>,
}

/// Who the binds of one connector are, and the last thing that went wrong with them.
pub(super) struct Peer {
    /// The connector's name, stamped on what it delivers.
    pub(super) name: ConnectorName,
    /// The SMSC.
    pub(super) target: SmppTarget,
    /// Where the target's `ca=` file is, read on each bind.
    pub(super) ca_dir: Option<CaDir>,
    /// The last refused bind or dropped link, for the connector's status.
    pub(super) last_error: std::sync::Mutex<Option<String>>,
}

impl Peer {
    fn failed(&self, reason: &str) {
        *self.last_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason.to_owned());
    }
}

/// Answers one deliver_sm with deliver_sm_resp when sent.
#[derive(Debug)]
pub(crate) struct Ack {
    outbox: mpsc::UnboundedSender<Command>,
    sequence: u32,
}

impl Ack {
    /// Tells the SMSC that the deliver_sm is taken (if its connection is still up).
    pub(crate) fn send(self) {
        let _ = self.outbox.send(Command::new(CommandStatus::EsmeRok, self.sequence, DeliverSmResp::builder().build()));
    }
}

/// Starts the bind's task; returns the link submitters use.
pub(super) fn start(
    peer: Arc<Peer>,
    inbound: mpsc::Sender<Delivered>,
    stop: CancellationToken,
) -> (Arc<Link>, tokio::task::JoinHandle<()>) {
    let (requests, queue) = mpsc::channel(peer.target.window.max(1));
    let (bound_tx, bound) = watch::channel(false);
    let link = Arc::new(Link { window: Arc::new(Semaphore::new(peer.target.window)), bound, requests });
    let task = tokio::spawn(keep_bound(peer, queue, bound_tx, inbound, stop));
    (link, task)
}

/// Connects and binds, serves until the link drops, then tries again with a growing pause.
async fn keep_bound(
    peer: Arc<Peer>,
    mut queue: mpsc::Receiver<Request>,
    bound: watch::Sender<bool>,
    inbound: mpsc::Sender<Delivered>,
    stop: CancellationToken,
) {
    let target = &peer.target;
    let mut backoff = Duration::from_millis(250);
    while !stop.is_cancelled() {
        match connect(target, peer.ca_dir.as_ref()).await {
            Ok(framed) => {
                tracing::info!(smsc = %target.address, "bound to the SMSC");
                backoff = Duration::from_millis(250);
                let _ = bound.send(true);
                let ended = serve(framed, &mut queue, &inbound, &peer.name, &stop).await;
                let _ = bound.send(false);
                match ended {
                    Ok(()) => tracing::info!(smsc = %target.address, "unbound from the SMSC"),
                    Err(reason) => {
                        tracing::warn!(smsc = %target.address, %reason, "the SMSC link dropped; reconnecting");
                        peer.failed(&format!("link dropped: {reason}"));
                    }
                }
            }
            Err(reason) => {
                tracing::warn!(smsc = %target.address, %reason, retry_in_ms = backoff.as_millis() as u64, "cannot bind to the SMSC");
                peer.failed(&format!("cannot bind: {reason}"));
            }
        }
        // Submits queued for this bind are answered "retry" at once (their answer is dropped),
        // so that another connector takes them instead of them waiting for the link.
        let pause = sleep(backoff);
        tokio::pin!(pause);
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                () = &mut pause => break,
                Some(request) = queue.recv() => drop(request),
            }
        }
        backoff = (backoff * 2).min(MOST_BACKOFF);
    }
}

type Connection = Framed<Box<dyn SmppStream>, CommandCodec>;

/// A TCP (or TLS) connection with a successful bind_transceiver.
async fn connect(target: &SmppTarget, ca_dir: Option<&CaDir>) -> Result<Connection, String> {
    let stream = timeout(ANSWER_WITHIN, TcpStream::connect(&target.address))
        .await
        .map_err(|_| "connecting timed out".to_owned())?
        .map_err(|e| format!("connecting: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let stream = timeout(ANSWER_WITHIN, tls::secure(stream, target, ca_dir))
        .await
        .map_err(|_| "the TLS handshake timed out".to_owned())??;
    let mut framed = Framed::new(stream, CommandCodec::new());
    let bind = BindTransceiver::builder()
        .system_id(COctetString::from_str(&target.system_id).map_err(|e| format!("system_id: {e}"))?)
        .password(COctetString::from_str(&target.password).map_err(|e| format!("password: {e}"))?)
        .system_type(COctetString::from_str(&target.system_type).map_err(|e| format!("system_type: {e}"))?)
        .interface_version(InterfaceVersion::Smpp3_4)
        .build();
    framed.send(Command::new(CommandStatus::EsmeRok, 1, bind)).await.map_err(|e| format!("sending bind: {e}"))?;
    let answer = timeout(ANSWER_WITHIN, framed.next()).await.map_err(|_| "no answer to bind_transceiver".to_owned())?;
    match answer {
        Some(Ok(command)) if matches!(command.pdu(), Some(Pdu::BindTransceiverResp(_))) => match command.status() {
            CommandStatus::EsmeRok => Ok(framed),
            status => Err(format!("bind refused: {status:?}")),
        },
        Some(Ok(command)) if command.id() == rusmpp::CommandId::GenericNack => {
            Err(format!("bind refused: {:?}", command.status()))
        }
        Some(Ok(command)) => Err(format!("unexpected answer to bind: {:?}", command.id())),
        Some(Err(e)) => Err(format!("reading the bind answer: {e}")),
        None => Err("the SMSC closed the connection".into()),
    }
}

/// Serves a bound link: `Ok` after an unbind (ours or the SMSC's), `Err` when it dropped.
async fn serve(
    framed: Connection,
    queue: &mut mpsc::Receiver<Request>,
    inbound: &mpsc::Sender<Delivered>,
    connector: &ConnectorName,
    stop: &CancellationToken,
) -> Result<(), String> {
    let (mut sink, mut stream) = framed.split();
    let (outbox, mut answers) = mpsc::unbounded_channel::<Command>();
    let mut pending: HashMap<u32, oneshot::Sender<Command>> = HashMap::new();
    let mut sequence: u32 = 1;
    let mut next_sequence = move || {
        sequence = sequence % 0x7FFF_FFFF + 1;
        sequence
    };
    let mut keepalive = interval(KEEPALIVE);
    keepalive.set_missed_tick_behavior(MissedTickBehavior::Delay);
    keepalive.tick().await;
    let mut enquiring: Option<Instant> = None;
    loop {
        tokio::select! {
            () = stop.cancelled() => return unbind(sink, stream, next_sequence()).await,
            Some(request) = queue.recv() => {
                let mut request = Some(request);
                // Everything queued meanwhile goes out in one write.
                while let Some(Request { submit, answer }) = request.take().or_else(|| queue.try_recv().ok()) {
                    let number = next_sequence();
                    pending.insert(number, answer);
                    sink.feed(Command::new(CommandStatus::EsmeRok, number, submit)).await.map_err(|e| format!("sending submit_sm: {e}"))?;
                    if pending.len() >= 1024 { break; }
                }
                sink.flush().await.map_err(|e| format!("sending: {e}"))?;
            }
            Some(answer) = answers.recv() => {
                sink.feed(answer).await.map_err(|e| format!("answering: {e}"))?;
                while let Ok(answer) = answers.try_recv() {
                    sink.feed(answer).await.map_err(|e| format!("answering: {e}"))?;
                }
                sink.flush().await.map_err(|e| format!("answering: {e}"))?;
            }
            next = stream.next() => {
                let command = match next {
                    Some(Ok(command)) => command,
                    Some(Err(e)) => return Err(format!("reading: {e}")),
                    None => return Err("the SMSC closed the connection".into()),
                };
                enquiring = None;
                if matches!(command.pdu(), Some(Pdu::Unbind)) {
                    let answer = Command::new(CommandStatus::EsmeRok, command.sequence_number(), Pdu::UnbindResp);
                    let _ = sink.send(answer).await;
                    return Ok(());
                }
                if let Some(reply) = handle(command, &mut pending, inbound, connector, &outbox).await {
                    sink.send(reply).await.map_err(|e| format!("answering: {e}"))?;
                }
            }
            _ = keepalive.tick() => {
                if enquiring.is_some_and(|since| since.elapsed() > ANSWER_WITHIN) {
                    return Err("no answer to enquire_link".into());
                }
                enquiring.get_or_insert_with(Instant::now);
                sink.send(Command::new(CommandStatus::EsmeRok, next_sequence(), Pdu::EnquireLink)).await.map_err(|e| format!("enquire_link: {e}"))?;
            }
        }
    }
}

/// Handles one PDU from the SMSC (but unbind); returns what to answer at once, if anything.
async fn handle(
    command: Command,
    pending: &mut HashMap<u32, oneshot::Sender<Command>>,
    inbound: &mpsc::Sender<Delivered>,
    connector: &ConnectorName,
    outbox: &mpsc::UnboundedSender<Command>,
) -> Option<Command> {
    let sequence = command.sequence_number();
    match command.pdu() {
        Some(Pdu::EnquireLink) => Some(Command::new(CommandStatus::EsmeRok, sequence, Pdu::EnquireLinkResp)),
        Some(Pdu::DeliverSm(deliver)) => {
            let ack = Ack { outbox: outbox.clone(), sequence };
            let delivered = Delivered { connector: connector.clone(), inbound: read_deliver(deliver), ack };
            let _ = inbound.send(delivered).await;
            None
        }
        _ if command.id().is_response() || command.id() == rusmpp::CommandId::GenericNack => {
            if let Some(answer) = pending.remove(&sequence) {
                let _ = answer.send(command);
            }
            None
        }
        _ => Some(Command::new(CommandStatus::EsmeRinvcmdid, sequence, Pdu::GenericNack)),
    }
}

/// A deliver_sm as texto reads it: a receipt (esm_class message type 0x04) or a reply.
fn read_deliver(deliver: &DeliverSm) -> Inbound {
    let esm_class = u8::from(deliver.esm_class);
    let bytes = deliver.short_message().as_ref();
    if esm_class & 0x3C == 0x04 {
        let text = String::from_utf8_lossy(bytes);
        let mut smsc_id = field(&text, "id").map(str::to_owned);
        let mut state = None;
        for tlv in deliver.tlvs() {
            match tlv.value() {
                Some(TlvValue::ReceiptedMessageId(id)) => smsc_id = Some(id.to_string()),
                Some(TlvValue::MessageState(s)) => state = Some(*s),
                _ => {}
            }
        }
        let code = match field(&text, "stat") {
            Some(stat) => DeliveryCode::from_receipt(stat, field(&text, "err").unwrap_or("000")),
            None => state.and_then(|state| DeliveryCode::from_message_state(u8::from(state))),
        };
        return Inbound::Receipt { smsc_id: smsc_id.unwrap_or_default(), code };
    }
    let (mut part, payload) = if esm_class & 0x40 != 0 { sms_text::split_udh(bytes) } else { (None, bytes) };
    if part.is_none() {
        part = sar_part(deliver);
    }
    Inbound::Reply {
        from: deliver.source_addr.to_string(),
        to: deliver.destination_addr.to_string(),
        text: texto_core::decode_short_message(u8::from(deliver.data_coding), payload),
        part,
    }
}

/// The place of a reply's part given by the SAR TLVs (`sar_msg_ref_num`, `sar_total_segments`,
/// `sar_segment_seqnum`), when all three are there.
fn sar_part(deliver: &DeliverSm) -> Option<sms_text::Concat> {
    let (mut reference, mut total, mut seq) = (None, None, None);
    for tlv in deliver.tlvs() {
        match tlv.value() {
            Some(TlvValue::SarMsgRefNum(value)) => reference = Some(*value),
            Some(TlvValue::SarTotalSegments(value)) => total = Some(*value),
            Some(TlvValue::SarSegmentSeqnum(value)) => seq = Some(*value),
            _ => {}
        }
    }
    Some(sms_text::Concat { reference: reference?, total: total?, seq: seq? })
}

/// Sends unbind and waits briefly for its answer.
async fn unbind(
    mut sink: futures_util::stream::SplitSink<Connection, Command>,
    mut stream: futures_util::stream::SplitStream<Connection>,
    sequence: u32,
) -> Result<(), String> {
    sink.send(Command::new(CommandStatus::EsmeRok, sequence, Pdu::Unbind)).await.map_err(|e| format!("unbind: {e}"))?;
    let _ = timeout(Duration::from_secs(2), async {
        while let Some(Ok(command)) = stream.next().await {
            if command.id() == rusmpp::CommandId::UnbindResp {
                return;
            }
        }
    })
    .await;
    Ok(())
}
