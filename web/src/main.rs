//! The marketing bundle's entry point (Trunk builds this binary from the root `index.html`).

fn main() {
    texto_web::start();
}
