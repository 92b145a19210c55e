//! The values a send's merge fields read: its recipients' contact cards (`[firstname]`,
//! `[lastname]`, `[field:ville]`) for the filter's exact cost, and each message's values as
//! stored with it (its list entry's `info1`…`info4`, then the card's), which the hand-over and
//! the history merge into the text.

use texto_core::{Audience, Campaign, CardValues, FilterContext, card_fields, parse_international};

use crate::{Error, state::AppState, store::AccountId};

/// The values of the card fields `campaign`'s text names (none when it names none), for
/// [`FilterContext::cards`]: every card of the account with one of them, its recipients' or
/// not (looking a recipient up costs the same, and a field is known when some contact has
/// it). A custom field that no contact of the account has is refused (-7, naming it): it is a
/// typo far more often than a field still to be filled.
pub(crate) async fn recipient_cards(
    state: &AppState,
    account: AccountId,
    campaign: &Campaign<'_>,
) -> Result<CardValues, Error> {
    let fields = card_fields(campaign.text());
    if fields.is_empty() {
        return Ok(CardValues::default());
    }
    let cards = state.store.merge_cards(account, &fields).await?;
    let is_known =
        |name: &str| fields.iter().enumerate().any(|(at, field)| field.name() == name && cards.has_value(at));
    match texto_core::unknown_field(campaign.text(), Some(&is_known), "sms.message.text") {
        Some(unknown) => Err(Error::Invalid(vec![unknown])),
        None => Ok(cards),
    }
}

/// Each outcome's values as its message stores them (JSON: `info1`…`info4`, then the card's
/// values; `None` when all are empty), in the order the filter saw the recipients: the
/// numbers', or the lists' contacts then the segments'. Made GSM as the text is when the send
/// asks for it.
pub(crate) fn stored_values(campaign: &Campaign<'_>, context: &FilterContext) -> Vec<Option<String>> {
    let encoding = campaign.encoding();
    let card_of =
        |number: &str| parse_international(number).ok().and_then(|n| context.cards.get(n.as_u64())).unwrap_or_default();
    // The four fields (empty for a number's message), then the card's values.
    let stored = |info: &[String], card: &[String]| -> Option<String> {
        if info.iter().chain(card).all(String::is_empty) {
            return None;
        }
        let four = (0..4).map(|i| info.get(i).map_or("", String::as_str));
        let values: Vec<String> = four.chain(card.iter().map(String::as_str)).map(|v| encoding.apply(v)).collect();
        serde_json::to_string(&values).ok()
    };
    match campaign.audience() {
        Audience::Numbers(recipients) if !context.cards.is_empty() => {
            recipients.iter().map(|r| stored(&[], card_of(r.number))).collect()
        }
        Audience::Numbers(_) => Vec::new(),
        Audience::Lists { lists, segments } => [(lists, &context.lists), (segments, &context.segments)]
            .into_iter()
            .flat_map(|(ids, contacts)| ids.iter().flat_map(|id| contacts.get(id).into_iter().flatten()))
            .map(|contact| stored(&contact.info, card_of(&contact.number)))
            .collect(),
    }
}
