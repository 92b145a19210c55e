//! The carrier: where texto hands its messages over and hears back from. The real one is an
//! SMSC reached over SMPP 3.4 ([`SmppCarrier`]); the built-in simulator is such an SMSC too.

mod ca;
mod encode;
mod receipt;
mod session;
mod smpp;
pub(crate) mod sms_text;
mod tls;
mod url;

use async_trait::async_trait;
use texto_core::DeliveryCode;

pub(crate) use ca::authorities;
pub use ca::{CaDir, CaName};
pub(crate) use session::Ack;
pub(crate) use smpp::SmppCarrier;
pub use url::{SmppTarget, SmscUrl, Tls};

/// One SMS to hand over, whatever number of parts its text takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Outgoing {
    /// The sender: alphanumeric, or digits.
    pub(crate) source: String,
    /// International digits, without `+`.
    pub(crate) destination: String,
    /// The text as the recipient gets it.
    pub(crate) text: String,
    /// Send in UCS-2 even when the text is GSM 03.38.
    pub(crate) unicode: bool,
    /// How long the carrier keeps trying (`None`: its default).
    pub(crate) validity: Option<texto_core::Validity>,
    /// The reference shared by the parts of a concatenated message.
    pub(crate) reference: u8,
}

/// What became of a hand-over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Submitted {
    /// The SMSC took every part; its id for the last part, which its final receipt names.
    Accepted {
        /// The SMSC's message_id of the last part.
        smsc_id: String,
    },
    /// Not now (throttled, queue full, no bind, lost connection): hand it over again later.
    Retry(String),
    /// Refused for good, with the delivery code of docs/interface.md §6.2.
    Failed {
        /// INVALID_DESTINATION, INVALID_SENDER or REJECTED.
        code: DeliveryCode,
        /// What the SMSC answered.
        reason: String,
    },
}

/// Something the carrier delivered to texto.
#[derive(Debug)]
pub(crate) enum Inbound {
    /// A delivery receipt: the SMSC id it is about and its delivery code (`None`: not final).
    Receipt {
        /// The receipted message_id.
        smsc_id: String,
        /// The code of docs/interface.md §6.3, or `None` for ACCEPTD / ENROUTE.
        code: Option<DeliveryCode>,
    },
    /// A reply (MO) from a phone, or one part of a long one.
    Reply {
        /// The phone's number.
        from: String,
        /// The number it wrote to.
        to: String,
        /// The text (of this part), decoded.
        text: String,
        /// Its place in a concatenated reply (UDH or SAR TLVs), if it is a part of one.
        part: Option<crate::carrier::sms_text::Concat>,
    },
}

/// An [`Inbound`] and how to acknowledge it: the SMSC is answered only once it is stored, so
/// a crash before that makes the SMSC deliver it again.
#[derive(Debug)]
pub(crate) struct Delivered {
    /// The connector it came from.
    pub(crate) connector: crate::operator::routing::ConnectorName,
    /// What arrived.
    pub(crate) inbound: Inbound,
    /// Answers the SMSC (deliver_sm_resp) when called.
    pub(crate) ack: session::Ack,
}

/// Where messages go.
#[async_trait]
pub(crate) trait Carrier: Send + Sync {
    /// Hands one message over and waits for the SMSC's answer to each of its parts.
    async fn submit(&self, sms: &Outgoing) -> Submitted;
    /// Unbinds every connection (on shutdown).
    async fn close(&self);
}
