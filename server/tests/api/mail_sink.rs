//! SMTP servers for the tests: a sink that keeps every message it is given, and a server that
//! accepts connections and never says a word.

use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;

/// A minimal SMTP server on a free port: answers every command, and sends each message's
/// DATA down the channel.
pub async fn smtp_sink() -> (u16, UnboundedReceiver<String>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let port = listener.local_addr().expect("an address").port();
    let (mails, received) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let mails = mails.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                let _ = write.write_all(b"220 sink ESMTP\r\n").await;
                let (mut data, mut in_data) = (String::new(), false);
                while let Ok(Some(line)) = lines.next_line().await {
                    let answer: &[u8] = if in_data {
                        if line == "." {
                            in_data = false;
                            let _ = mails.send(std::mem::take(&mut data));
                            b"250 queued\r\n"
                        } else {
                            data.push_str(&line);
                            data.push('\n');
                            continue;
                        }
                    } else if line.eq_ignore_ascii_case("DATA") {
                        in_data = true;
                        b"354 go on\r\n"
                    } else if line.eq_ignore_ascii_case("QUIT") {
                        let _ = write.write_all(b"221 bye\r\n").await;
                        return;
                    } else {
                        b"250 ok\r\n"
                    };
                    let _ = write.write_all(answer).await;
                }
            });
        }
    });
    (port, received)
}

/// An SMTP server that accepts connections and never answers: a mail relay that hangs.
pub async fn silent_smtp() -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let port = listener.local_addr().expect("an address").port();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            held.push(socket);
        }
    });
    port
}

/// Every message the sink receives until `quiet` passes without a new one.
pub async fn mails_until_quiet(mails: &mut UnboundedReceiver<String>, quiet: Duration) -> Vec<String> {
    let mut received = Vec::new();
    while let Ok(Some(mail)) = tokio::time::timeout(quiet, mails.recv()).await {
        received.push(mail);
    }
    received
}
