//! An A/B test's texts dealt to the recipients the filter let through: its sample priced at
//! each one's own text, the rest held at the longest until the winner is known.

use super::{Outcome, RecipientOutcome};
use crate::Credits;

/// Deals an A/B test's texts to the recipients that passed: the sample's each get their text,
/// priced for it; the rest stay priced at the longest text until the winner is known. The cost
/// after it, and the sizes of the sample and of the rest.
pub(super) fn deal(
    ab: &crate::AbTest,
    outcomes: &mut [RecipientOutcome],
    cost: Credits,
) -> (Credits, Option<(u64, u64)>) {
    let mut passed: Vec<&mut RecipientOutcome> = outcomes.iter_mut().filter(|o| o.outcome == Outcome::Sent).collect();
    let slots = ab.split(passed.len());
    let mut cost = cost;
    let mut sample = 0;
    for (outcome, slot) in passed.iter_mut().zip(slots) {
        let Some(variant) = slot else { continue };
        let parts = u32::from(outcome.text_parts[usize::from(variant)]);
        // The cost is the part price times the parts: the price, times the text's parts.
        let priced = Credits::from_hundredths(outcome.cost.hundredths() / i64::from(outcome.parts.max(1))) * parts;
        cost = cost - outcome.cost + priced;
        (outcome.parts, outcome.cost, outcome.variant) = (parts, priced, Some(variant));
        sample += 1;
    }
    (cost, Some((sample, passed.len() as u64 - sample)))
}
