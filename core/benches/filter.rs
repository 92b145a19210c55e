//! Decode + validate + simulate a 1,000,000-recipient send request, JSON and XML.
//! `cargo bench -p texto-core --bench filter`
#![allow(missing_docs)] // criterion_group! generates an undocumented function

mod workload;

/// The allocator of the `texto` server, which runs this code.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::time::Duration;

use chrono::{TimeZone, Utc};
use criterion::{Criterion, criterion_group, criterion_main};
use texto_core::{
    Endpoint, MessageOptions, simulate, validate_send,
    wire::{Format, decode_sms},
};

fn decode_and_simulate(c: &mut Criterion) {
    let numbers = workload::numbers();
    let context = workload::context(&numbers);
    let bodies =
        [("json", Format::Json, workload::json_body(&numbers)), ("xml", Format::Xml, workload::xml_body(&numbers))];
    let now = Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap();
    let mut group = c.benchmark_group("send_1m_recipients");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    for (name, format, body) in &bodies {
        group.bench_function(*name, |b| {
            b.iter(|| {
                let request = decode_sms(body, *format).expect("decodes");
                let campaign = validate_send(request, Endpoint::Send, &MessageOptions::default(), now).expect("valid");
                let result = simulate(&campaign, &context, now).expect("simulates");
                assert_eq!(result.counters.total, workload::RECIPIENTS as u64);
                result.counters.sent
            })
        });
    }
    group.finish();
}

criterion_group!(benches, decode_and_simulate);
criterion_main!(benches);
