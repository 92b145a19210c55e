//! A test send (`POST /campaign/:id/test`): a campaign's message as one sample contact gets it,
//! sent to up to [`MOST_TEST_NUMBERS`] numbers of the team's as an alert, apart from the
//! campaign.

use std::borrow::Cow;

use super::{
    merge::MergeValues,
    message::{MessageOptions, SHORT_MARKER, render},
};
use crate::{
    FieldError, PushType,
    wire::{GsmDto, MessageDto, RecipientsDto, SmsRequest},
};

/// The most numbers one test send goes to.
pub const MOST_TEST_NUMBERS: usize = 10;

/// The request that sends `campaign`'s message to `numbers` as a test: its text with the
/// sample contact's values (`values`: its list entry's fields and card) and, for marketing, its opt-out
/// text, as the campaign's recipients will read it; short links stay to be made; no delay; an
/// alert (outside the marketing window's rules, charged as an alert). The numbers are checked
/// by the send itself; here only how many there are (`numbers`: 1 to 10).
pub fn test_request(
    campaign: &SmsRequest<'_>,
    numbers: Vec<String>,
    options: &MessageOptions,
    values: Option<&MergeValues>,
) -> Result<SmsRequest<'static>, Vec<FieldError>> {
    if numbers.is_empty() || numbers.len() > MOST_TEST_NUMBERS {
        let found = numbers.len();
        return Err(vec![FieldError::new("numbers", format!("1 to {MOST_TEST_NUMBERS} numbers, found {found}"))]);
    }
    let message = &campaign.message;
    let pushtype = match message.pushtype.as_deref().map(|name| (name, PushType::parse(name))) {
        None => PushType::Alert,
        Some((_, Some(pushtype))) => pushtype,
        Some((name, None)) => {
            let found = crate::excerpt(name);
            return Err(vec![FieldError::new("sms.message.pushtype", format!("alert or marketing, found {found}"))]);
        }
    };
    let text = message.text.as_deref().unwrap_or_default();
    let markers = vec![SHORT_MARKER.to_owned(); text.matches(SHORT_MARKER).count()];
    let gsm = numbers.into_iter().map(|number| GsmDto { value: Cow::Owned(number), gsmsmsid: None }).collect();
    Ok(SmsRequest {
        message: MessageDto {
            text: Some(render(text, pushtype, &markers, options, values)),
            pushtype: Some(PushType::Alert.as_str().to_owned()),
            delay: None,
            // An A/B test's test sends its first text: the sample is the campaign's business.
            variants: None,
            ab: None,
            ..message.clone()
        },
        recipients: Some(RecipientsDto { gsm }),
        lists: None,
        segments: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn campaign(text: &str, pushtype: &str) -> SmsRequest<'static> {
        SmsRequest {
            message: MessageDto {
                text: Some(text.to_owned()),
                pushtype: Some(pushtype.to_owned()),
                delay: Some("2030-01-01 10:00:00".to_owned()),
                links: Some(vec!["https://example.com".to_owned()]),
                ..MessageDto::default()
            },
            ..SmsRequest::default()
        }
    }

    #[test]
    fn a_test_reads_as_the_sample_contact_will_with_its_links_still_to_make() {
        let card = vec!["Martin".to_owned()];
        let info = MergeValues { info: ["Léa", "", "", ""], card: &card };
        let options = MessageOptions::default();
        let request = test_request(
            &campaign("Bonjour [info1] [lastname], -20 % <-short->", "marketing"),
            vec!["33612345678".into()],
            &options,
            Some(&info),
        )
        .expect("a request");
        let message = &request.message;
        assert_eq!(message.text.as_deref(), Some("Bonjour Léa Martin, -20 % <-short->\nSTOP au 36180"));
        assert_eq!((message.pushtype.as_deref(), message.delay.as_deref()), (Some("alert"), None));
        assert_eq!(message.links.as_deref(), Some(&["https://example.com".to_owned()][..]));
        assert_eq!(request.recipients.map(|r| r.gsm.len()), Some(1));
    }

    #[test]
    fn one_to_ten_numbers() {
        let options = MessageOptions::default();
        let alert = campaign("Code", "alert");
        assert!(test_request(&alert, Vec::new(), &options, None).is_err());
        let eleven = (0..11).map(|n| format!("336123456{n:02}")).collect();
        let refused = test_request(&alert, eleven, &options, None).expect_err("too many");
        assert_eq!(refused[0].path, "numbers");
        let promo = campaign("Soldes", "promo");
        let refused = test_request(&promo, vec!["33612345678".into()], &options, None).expect_err("no such push type");
        assert_eq!(refused[0].path, "sms.message.pushtype", "as the send would say");
    }
}
