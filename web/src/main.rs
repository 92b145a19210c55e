//! The web app's entry point (Trunk builds this binary).

fn main() {
    texto_web::start();
}
