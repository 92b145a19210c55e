//! Automation's entry point (Trunk builds this binary from the root `automation.html`).

fn main() {
    texto_web::start_automation();
}
