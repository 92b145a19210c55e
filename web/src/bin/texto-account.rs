//! The account area's entry point (Trunk builds this binary from the root `account.html`).

fn main() {
    texto_web::start_account();
}
