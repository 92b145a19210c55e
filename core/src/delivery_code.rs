//! Delivery codes: what became of one message (docs/interface.md §6), and the SMPP 3.4 states
//! and errors that map to them.

/// The delivery code of a message, as the interface numbers it (`delivery` in the database).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DeliveryCode {
    /// 0: waiting to be handed over.
    NotSent,
    /// 1: taken by the carrier, waiting for its receipt.
    Sent,
    /// 2: the carrier could not deliver it.
    NotDelivered,
    /// 3: on the phone.
    Delivered,
    /// 4: not allowed (refused before it left).
    NotAllowed,
    /// 5: the number does not exist (the number joins the account's NPAI list).
    InvalidDestination,
    /// 6: the carrier refused the sender.
    InvalidSender,
    /// 7: no route to the number's network.
    RouteNotAvailable,
    /// 9: refused or deleted by the carrier.
    Rejected,
    /// 11: the network lost track of it.
    NetworkError,
    /// 12: its validity ran out before it reached the phone.
    Expired,
}

/// SMPP 3.4's `ESME_RINVSRCADR`: the source address (sender) is invalid.
pub const ESME_RINVSRCADR: u32 = 0x0000_000A;
/// SMPP 3.4's `ESME_RINVDSTADR`: the destination address is invalid.
pub const ESME_RINVDSTADR: u32 = 0x0000_000B;

impl DeliveryCode {
    /// Every code, in numeric order.
    pub const ALL: [DeliveryCode; 11] = [
        DeliveryCode::NotSent,
        DeliveryCode::Sent,
        DeliveryCode::NotDelivered,
        DeliveryCode::Delivered,
        DeliveryCode::NotAllowed,
        DeliveryCode::InvalidDestination,
        DeliveryCode::InvalidSender,
        DeliveryCode::RouteNotAvailable,
        DeliveryCode::Rejected,
        DeliveryCode::NetworkError,
        DeliveryCode::Expired,
    ];

    /// The codes the statistics count as `error`: not delivered, not allowed, invalid sender,
    /// no route, rejected.
    pub const ERRORS: [DeliveryCode; 5] = [
        DeliveryCode::NotDelivered,
        DeliveryCode::NotAllowed,
        DeliveryCode::InvalidSender,
        DeliveryCode::RouteNotAvailable,
        DeliveryCode::Rejected,
    ];

    /// The number on the wire and in the database.
    pub const fn code(self) -> i64 {
        match self {
            DeliveryCode::NotSent => 0,
            DeliveryCode::Sent => 1,
            DeliveryCode::NotDelivered => 2,
            DeliveryCode::Delivered => 3,
            DeliveryCode::NotAllowed => 4,
            DeliveryCode::InvalidDestination => 5,
            DeliveryCode::InvalidSender => 6,
            DeliveryCode::RouteNotAvailable => 7,
            DeliveryCode::Rejected => 9,
            DeliveryCode::NetworkError => 11,
            DeliveryCode::Expired => 12,
        }
    }

    /// The code's name in `GET /messages` (`status`, and its `status` filter): `pending`,
    /// `sent`, `not_delivered`, `delivered`, `not_allowed`, `npai`, `invalid_sender`,
    /// `no_route`, `rejected`, `network_error`, `expired`.
    pub const fn label(self) -> &'static str {
        match self {
            DeliveryCode::NotSent => "pending",
            DeliveryCode::Sent => "sent",
            DeliveryCode::NotDelivered => "not_delivered",
            DeliveryCode::Delivered => "delivered",
            DeliveryCode::NotAllowed => "not_allowed",
            DeliveryCode::InvalidDestination => "npai",
            DeliveryCode::InvalidSender => "invalid_sender",
            DeliveryCode::RouteNotAvailable => "no_route",
            DeliveryCode::Rejected => "rejected",
            DeliveryCode::NetworkError => "network_error",
            DeliveryCode::Expired => "expired",
        }
    }

    /// The code named `label` (see [`DeliveryCode::label`]), or numbered so (`3`).
    pub fn from_label(label: &str) -> Option<DeliveryCode> {
        let label = label.trim();
        DeliveryCode::ALL
            .into_iter()
            .find(|c| c.label().eq_ignore_ascii_case(label) || label.parse::<i64>().is_ok_and(|n| n == c.code()))
    }

    /// What the code means, in a sentence (`status_details` of `GET /messages`).
    pub const fn description(self) -> &'static str {
        match self {
            DeliveryCode::NotSent => "waiting to be handed to the carrier",
            DeliveryCode::Sent => "taken by the carrier, waiting for its receipt",
            DeliveryCode::NotDelivered => "the carrier could not deliver it",
            DeliveryCode::Delivered => "delivered to the phone",
            DeliveryCode::NotAllowed => "not allowed: refused before it left",
            DeliveryCode::InvalidDestination => "the number does not exist",
            DeliveryCode::InvalidSender => "the carrier refused the sender",
            DeliveryCode::RouteNotAvailable => "no route to the number's network",
            DeliveryCode::Rejected => "refused or deleted by the carrier",
            DeliveryCode::NetworkError => "the network lost track of it",
            DeliveryCode::Expired => "its validity ran out before it reached the phone",
        }
    }

    /// The code numbered `code`; `None` for a number the interface does not define.
    pub fn from_code(code: i64) -> Option<DeliveryCode> {
        DeliveryCode::ALL.into_iter().find(|c| c.code() == code)
    }

    /// Whether the message's fate is known: every code but NOT_SENT and SENT.
    pub const fn is_final(self) -> bool {
        !matches!(self, DeliveryCode::NotSent | DeliveryCode::Sent)
    }

    /// The code of a delivery receipt's `stat:` and `err:`; `None` while it is not final
    /// (ACCEPTD, ENROUTE) or for a state SMPP 3.4 does not define.
    pub fn from_receipt(stat: &str, err: &str) -> Option<DeliveryCode> {
        match stat {
            "DELIVRD" => Some(DeliveryCode::Delivered),
            "UNDELIV" if err.trim_start_matches('0') == "1" => Some(DeliveryCode::InvalidDestination),
            "UNDELIV" => Some(DeliveryCode::NotDelivered),
            "EXPIRED" => Some(DeliveryCode::Expired),
            "REJECTD" | "DELETED" => Some(DeliveryCode::Rejected),
            "UNKNOWN" => Some(DeliveryCode::NetworkError),
            _ => None,
        }
    }

    /// The code of a receipt's `message_state` (SMPP 3.4 §5.2.28: 2 DELIVERED, 3 EXPIRED,
    /// 4 DELETED, 5 UNDELIVERABLE, 7 UNKNOWN, 8 REJECTED); `None` while it is not final.
    pub const fn from_message_state(state: u8) -> Option<DeliveryCode> {
        match state {
            2 => Some(DeliveryCode::Delivered),
            3 => Some(DeliveryCode::Expired),
            4 | 8 => Some(DeliveryCode::Rejected),
            5 => Some(DeliveryCode::NotDelivered),
            7 => Some(DeliveryCode::NetworkError),
            _ => None,
        }
    }

    /// The final code of a `submit_sm` refused with `command_status` for good (the caller has
    /// already set apart the refusals worth another try: throttled, queue full).
    pub const fn from_submit_refusal(command_status: u32) -> DeliveryCode {
        match command_status {
            ESME_RINVDSTADR => DeliveryCode::InvalidDestination,
            ESME_RINVSRCADR => DeliveryCode::InvalidSender,
            _ => DeliveryCode::Rejected,
        }
    }
}

#[cfg(test)]
mod label_tests {
    use super::DeliveryCode;

    #[test]
    fn every_code_reads_back_from_its_label_and_its_number() {
        for code in DeliveryCode::ALL {
            assert_eq!(DeliveryCode::from_label(code.label()), Some(code));
            assert_eq!(DeliveryCode::from_label(&code.code().to_string()), Some(code));
            assert!(!code.description().is_empty());
        }
        assert_eq!(DeliveryCode::from_label(" DELIVERED "), Some(DeliveryCode::Delivered));
        assert_eq!(DeliveryCode::from_label("8"), None);
        assert_eq!(DeliveryCode::from_label("lost"), None);
    }
}

impl std::fmt::Display for DeliveryCode {
    /// The number, as the interface writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::DeliveryCode;

    #[test]
    fn each_code_reads_back_from_its_number_and_no_other_number_is_a_code() {
        for code in DeliveryCode::ALL {
            assert_eq!(DeliveryCode::from_code(code.code()), Some(code));
        }
        for number in [-1, 8, 10, 13, 255] {
            assert_eq!(DeliveryCode::from_code(number), None);
        }
        let finals = DeliveryCode::ALL.into_iter().filter(|c| !c.is_final()).count();
        assert_eq!(finals, 2, "only NOT_SENT and SENT wait");
    }

    #[test]
    fn each_receipt_state_has_its_code() {
        let cases = [
            ("DELIVRD", "000", Some(DeliveryCode::Delivered)),
            ("UNDELIV", "001", Some(DeliveryCode::InvalidDestination)),
            ("UNDELIV", "1", Some(DeliveryCode::InvalidDestination)),
            ("UNDELIV", "000", Some(DeliveryCode::NotDelivered)),
            ("UNDELIV", "034", Some(DeliveryCode::NotDelivered)),
            ("EXPIRED", "000", Some(DeliveryCode::Expired)),
            ("REJECTD", "000", Some(DeliveryCode::Rejected)),
            ("DELETED", "000", Some(DeliveryCode::Rejected)),
            ("UNKNOWN", "000", Some(DeliveryCode::NetworkError)),
            ("ENROUTE", "000", None),
            ("ACCEPTD", "000", None),
            ("delivrd", "000", None),
        ];
        for (stat, err, code) in cases {
            assert_eq!(DeliveryCode::from_receipt(stat, err), code, "stat:{stat} err:{err}");
        }
    }

    #[test]
    fn receipt_message_states_map_like_their_stat_words() {
        let pairs = [(2, "DELIVRD"), (3, "EXPIRED"), (4, "DELETED"), (5, "UNDELIV"), (7, "UNKNOWN"), (8, "REJECTD")];
        for (state, stat) in pairs {
            assert_eq!(DeliveryCode::from_message_state(state), DeliveryCode::from_receipt(stat, "000"), "{stat}");
        }
        for waiting in [0, 1, 6] {
            assert_eq!(DeliveryCode::from_message_state(waiting), None);
        }
    }

    #[test]
    fn submit_refusals_map_to_their_codes() {
        assert_eq!(DeliveryCode::from_submit_refusal(0x0B), DeliveryCode::InvalidDestination);
        assert_eq!(DeliveryCode::from_submit_refusal(0x0A), DeliveryCode::InvalidSender);
        assert_eq!(DeliveryCode::from_submit_refusal(0x45), DeliveryCode::Rejected);
    }
}
