//! The benchmark workload: 1,000,000 random French mobiles with 5% duplicates,
//! 1% invalid numbers, 10,000 blacklisted and 10,000 NPAI. Deterministic (fixed seed).

use texto_core::{Credits, FilterContext, parse_international};

/// Recipients in the request.
pub const RECIPIENTS: usize = 1_000_000;

/// A small deterministic generator (xorshift64*), so runs are comparable.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// The recipients' numbers as written in the request.
pub fn numbers() -> Vec<String> {
    let mut random = Random(0x7E57_0001);
    let mut numbers: Vec<String> = Vec::with_capacity(RECIPIENTS);
    while numbers.len() < RECIPIENTS {
        let roll = random.next() % 100;
        let number = if roll < 5 && !numbers.is_empty() {
            numbers[(random.next() % numbers.len() as u64) as usize].clone()
        } else if roll < 6 {
            format!("0{}", 600_000_000 + random.next() % 100_000_000) // national format: invalid
        } else {
            format!("336{:08}", random.next() % 100_000_000)
        };
        numbers.push(number);
    }
    numbers
}

/// `POST /send` body in JSON.
pub fn json_body(numbers: &[String]) -> String {
    let mut body = String::with_capacity(numbers.len() * 40);
    body.push_str(r#"{"sms":{"message":{"text":"Soldes d'hiver : -30% sur tout le magasin ce week-end !","pushtype":"alert","sender":"Boutique"},"recipients":{"gsm":["#);
    for (i, number) in numbers.iter().enumerate() {
        if i > 0 {
            body.push(',');
        }
        body.push_str(r#"{"value":""#);
        body.push_str(number);
        body.push_str(r#""}"#);
    }
    body.push_str("]}}}");
    body
}

/// The same request in XML.
pub fn xml_body(numbers: &[String]) -> String {
    let mut body = String::with_capacity(numbers.len() * 30);
    body.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?><sms><message><text>Soldes d'hiver : -30% sur tout le magasin ce week-end !</text><pushtype>alert</pushtype><sender>Boutique</sender></message><recipients>");
    for number in numbers {
        body.push_str("<gsm>");
        body.push_str(number);
        body.push_str("</gsm>");
    }
    body.push_str("</recipients></sms>");
    body
}

/// The account: 10,000 blacklisted and 10,000 NPAI numbers among the recipients, 1M credits.
pub fn context(numbers: &[String]) -> FilterContext {
    let mut context = FilterContext { balance: Credits::whole(2_000_000), ..FilterContext::default() };
    let valid = numbers.iter().filter_map(|n| parse_international(n).ok()).map(|m| m.as_u64());
    for (i, number) in valid.step_by(37).take(20_000).enumerate() {
        if i % 2 == 0 {
            context.blacklist.insert(number);
        } else {
            context.npai.insert(number);
        }
    }
    context
}
