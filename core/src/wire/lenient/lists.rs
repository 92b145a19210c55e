//! The readers of repeated elements: a JSON array, or XML's one element or several (see
//! [`list`]), each item read as an object only where it is a DTO (`wire::objects`).

use std::fmt;

use serde::de::{self, Deserializer, Visitor};

use super::{RECIPIENT_ROOM, in_xml, rejected_sequence};
use crate::wire::objects::Object;

/// A repeated element. In XML, one element arrives as itself (not a one-item array) and an
/// empty element (`<list></list>`, how `[]` is written) arrives as an empty text: both are
/// read here. In JSON only an array is a list.
pub fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de> + ListItem,
{
    if !in_xml() {
        return d.deserialize_seq(Reserved { room: 0, item: std::marker::PhantomData });
    }
    let mut items = d.deserialize_any(OneOrMany(std::marker::PhantomData))?;
    if items.len() == 1 && items[0] == T::default() {
        items.clear();
    }
    Ok(items)
}

/// Like [`list`], for `sms.recipients.gsm`: in JSON, reserves the room [`RecipientRoom`] set.
pub fn recipients<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de> + ListItem,
{
    if in_xml() {
        return list(d);
    }
    let room = crate::wire::limits::room(RECIPIENT_ROOM.with(|room| room.replace(0)));
    d.deserialize_seq(Reserved { room, item: std::marker::PhantomData })
}

/// A sequence read into a vector with `room` reserved up front, stopped at the item limit
/// (see [`crate::wire::limits`]).
struct Reserved<T> {
    room: usize,
    item: std::marker::PhantomData<T>,
}

impl<'de, T: serde::Deserialize<'de>> Visitor<'de> for Reserved<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::with_capacity(crate::wire::limits::room(self.room.max(seq.size_hint().unwrap_or(0))));
        while let Some(Object(item)) = seq.next_element()? {
            crate::wire::limits::push_counted(&mut items, item)?;
        }
        Ok(items)
    }
}

/// An item of a repeated XML element (see [`list`]).
pub trait ListItem: Default + PartialEq {
    /// Whether the item reads an empty element (an empty map) as its default by itself, as a
    /// struct whose fields all have defaults does. Then a map is handed to it whole; else its
    /// first key is read first, to see whether it is empty (a string is given its default).
    const READS_EMPTY_MAP: bool = true;
}

impl ListItem for String {
    const READS_EMPTY_MAP: bool = false;
}

impl ListItem for crate::wire::JourneyDto {}
impl ListItem for crate::wire::JourneyStepDto {}
impl ListItem for crate::wire::JourneyContactDto {}
impl ListItem for crate::wire::JourneyStepReportDto {}
impl ListItem for crate::wire::JourneyTrialStepDto {}
impl ListItem for crate::wire::SignupPageDto {}
impl ListItem for crate::wire::CampaignSummaryDto {}
impl ListItem for crate::wire::OverseasDto {}
impl ListItem for crate::wire::CampaignListDto {}
impl ListItem for crate::wire::CampaignDetailDto {}
impl ListItem for crate::wire::ContactDto {}
impl ListItem for crate::wire::NumberEntryDto {}
impl ListItem for crate::wire::ListContactDto {}
impl ListItem for crate::wire::UserDto {}
impl ListItem for crate::wire::InvitationDto {}
impl ListItem for crate::wire::AuditEntryDto {}
impl ListItem for crate::wire::KeywordDto {}
impl ListItem for crate::wire::SegmentDto {}
impl ListItem for crate::wire::TemplateDto {}
impl ListItem for crate::wire::SegmentRuleDto {}
impl ListItem for crate::wire::DayMetricsDto {}
impl ListItem for crate::wire::CountryPriceDto {}
impl ListItem for crate::wire::ConnectorStatusDto {}
impl ListItem for crate::wire::ConnectorDto {}
impl ListItem for crate::wire::RouteDto {}
impl ListItem for crate::wire::OperatorAccountDto {}
impl ListItem for crate::wire::LedgerLineDto {}
impl ListItem for crate::wire::HeldCampaignDto {}
impl ListItem for crate::wire::ModerationRuleDto {}
impl ListItem for crate::wire::PlanPricesDto {}
impl ListItem for crate::wire::TrafficDto {}
impl ListItem for crate::wire::ContactCardDto {}
impl ListItem for crate::wire::ContactMembershipDto {}
impl ListItem for crate::wire::ContactClickDto {}
impl ListItem for crate::wire::KeywordActionDto {}
impl ListItem for crate::wire::SubAccountDto {}
impl ListItem for crate::wire::ConversationDto {}
impl ListItem for crate::wire::ConversationEntryDto {}
impl ListItem for crate::wire::ListSummaryDto {}
impl ListItem for crate::wire::ErrorDetailDto {}
impl ListItem for crate::wire::TokenDto {}
impl ListItem for crate::wire::AccountDto {}
impl ListItem for crate::wire::SentMessageDto {}
impl ListItem for crate::wire::ReplyDto {}
impl ListItem for crate::wire::StopDto {}
impl ListItem for crate::wire::CountryConsumptionDto {}
impl ListItem for crate::wire::AccountConsumptionDto {}
impl ListItem for crate::wire::ListRefDto {}
impl ListItem for crate::wire::LinkClicksDto {}
impl ListItem for crate::wire::ClickerDto {}
impl ListItem for crate::wire::GsmDto<'_> {}
impl ListItem for crate::wire::WebhookDto {}
impl ListItem for crate::wire::ReportHourDto {}
impl ListItem for crate::wire::SenderDto {}
impl ListItem for crate::wire::ReportCountryDto {}
impl ListItem for crate::wire::ReportVariantDto {}
impl ListItem for crate::wire::WebhookLogEntryDto {}

/// Reads one item or a sequence of items (XML's view of a list).
struct OneOrMany<T>(std::marker::PhantomData<T>);

impl<'de, T: serde::Deserialize<'de> + ListItem> Visitor<'de> for OneOrMany<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("one element or several")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::with_capacity(crate::wire::limits::room(seq.size_hint().unwrap_or(0)));
        if T::READS_EMPTY_MAP {
            // A struct reads an empty element (an empty map) as its default by itself, and is
            // refused a text as `Item` would refuse it (XML items are never arrays).
            while let Some(Object(item)) = seq.next_element()? {
                crate::wire::limits::push_counted(&mut items, item)?;
            }
            return Ok(items);
        }
        while let Some(Item(item)) = seq.next_element()? {
            crate::wire::limits::push_counted(&mut items, item)?;
        }
        Ok(items)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Vec<T>, A::Error> {
        // An empty element (no attribute, child or text) is the empty list: a struct reads it
        // as its default, which `list` drops. Handing it the map itself keeps one instance of
        // its deserializer (a replaying map would be a second).
        if T::READS_EMPTY_MAP {
            return T::deserialize(de::value::MapAccessDeserializer::new(map)).map(|item| vec![item]);
        }
        let Some(first) = map.next_key::<String>()? else { return Ok(Vec::new()) };
        T::deserialize(de::value::MapAccessDeserializer::new(Replay { first: Some(first), rest: map }))
            .map(|item| vec![item])
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Vec<T>, E> {
        self.visit_string(text.to_owned())
    }
    fn visit_string<E: de::Error>(self, text: String) -> Result<Vec<T>, E> {
        if text.is_empty() {
            return Ok(Vec::new());
        }
        T::deserialize(de::IntoDeserializer::<E>::into_deserializer(text)).map(|item| vec![item])
    }
}

/// One repeated element of XML: an empty element (an empty object) is the item's default.
struct Item<T>(T);

impl<'de, T: serde::Deserialize<'de> + ListItem> serde::Deserialize<'de> for Item<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Item<T>, D::Error> {
        d.deserialize_any(ItemVisitor(std::marker::PhantomData))
    }
}

struct ItemVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: serde::Deserialize<'de> + ListItem> Visitor<'de> for ItemVisitor<T> {
    type Value = Item<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an element")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, _seq: A) -> Result<Item<T>, A::Error> {
        Err(rejected_sequence(&self))
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Item<T>, A::Error> {
        if T::READS_EMPTY_MAP {
            return T::deserialize(de::value::MapAccessDeserializer::new(map)).map(Item);
        }
        let Some(first) = map.next_key::<String>()? else { return Ok(Item(T::default())) };
        T::deserialize(de::value::MapAccessDeserializer::new(Replay { first: Some(first), rest: map })).map(Item)
    }
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Item<T>, E> {
        T::deserialize(de::IntoDeserializer::<E>::into_deserializer(text.to_owned())).map(Item)
    }
    fn visit_string<E: de::Error>(self, text: String) -> Result<Item<T>, E> {
        T::deserialize(de::IntoDeserializer::<E>::into_deserializer(text)).map(Item)
    }
}

/// A map whose first key was already read (to see whether there was one): yields it again.
struct Replay<A> {
    first: Option<String>,
    rest: A,
}

impl<'de, A: de::MapAccess<'de>> de::MapAccess<'de> for Replay<A> {
    type Error = A::Error;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(key) => seed.deserialize(de::IntoDeserializer::<A::Error>::into_deserializer(key)).map(Some),
            None => self.rest.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.rest.next_value_seed(seed)
    }
}

/// Like [`list`] for an optional repeated element (absent is `None`).
pub fn opt_list<'de, D, T>(d: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::Deserialize<'de> + ListItem,
{
    list(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::*;

    fn reads_empty_map_as_default<T: serde::de::DeserializeOwned + ListItem + std::fmt::Debug>() {
        if T::READS_EMPTY_MAP {
            assert_eq!(serde_json::from_str::<T>("{}").unwrap(), T::default(), "{}", std::any::type_name::<T>());
        }
    }

    #[test]
    fn list_items_that_take_a_map_whole_read_an_empty_one_as_their_default() {
        reads_empty_map_as_default::<String>();
        reads_empty_map_as_default::<CampaignSummaryDto>();
        reads_empty_map_as_default::<CampaignListDto>();
        reads_empty_map_as_default::<CampaignDetailDto>();
        reads_empty_map_as_default::<ContactDto>();
        reads_empty_map_as_default::<NumberEntryDto>();
        reads_empty_map_as_default::<ListContactDto>();
        reads_empty_map_as_default::<ListSummaryDto>();
        reads_empty_map_as_default::<ErrorDetailDto>();
        reads_empty_map_as_default::<ListRefDto>();
        assert_eq!(serde_json::from_str::<GsmDto>("{}").unwrap(), GsmDto::default());
        reads_empty_map_as_default::<WebhookDto>();
        reads_empty_map_as_default::<WebhookLogEntryDto>();
    }
}
