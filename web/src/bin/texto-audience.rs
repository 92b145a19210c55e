//! The audience and conversations' entry point (Trunk builds this binary from the root
//! `audience.html`).

fn main() {
    texto_web::start_audience();
}
