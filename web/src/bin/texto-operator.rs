//! The operator's console's entry point (Trunk builds this binary from the root `operator.html`).

fn main() {
    texto_web::start_operator();
}
