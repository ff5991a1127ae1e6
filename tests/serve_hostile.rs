//! The web server against careless or hostile clients, over real HTTP on 127.0.0.1 (issue
//! "hostile input, round two", items 1 to 5): a variant text sent over HTTP reads no file
//! outside the served folder, a foreign `Host` is refused, slow clients are dropped and
//! connections capped, and engine work stops at the request's limit or when its client leaves.

use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use bulwark::serve::{self, Config, Running, Variant};
use serde_json::{Value, json};

fn bundled(name: &str) -> &'static str {
    bulwark::load::bundled_text(name).unwrap()
}

fn config(variant: &str) -> Config {
    Config::new(
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        Variant::load(variant, bundled(variant)).unwrap(),
    )
}

/// A fresh folder for one test.
fn folder(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bulwark-hostile-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Status and body text of a request sent with `Host: host`, the connection closed after it.
fn raw(s: &Running, method: &str, path: &str, host: &str, body: Option<&Value>) -> (u16, String) {
    let mut c = TcpStream::connect(s.addr).unwrap();
    c.set_read_timeout(Some(Duration::from_mins(2))).unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    c.write_all(head.as_bytes()).unwrap();
    c.write_all(body.as_bytes()).unwrap();
    let mut out = String::new();
    c.read_to_string(&mut out).unwrap();
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|w| w.parse().ok())
        .unwrap_or(0);
    let text = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, text)
}

fn send(s: &Running, method: &str, path: &str, body: Value) -> (u16, String) {
    raw(s, method, path, "127.0.0.1", Some(&body))
}

const SECRET: &str = "TOP-SECRET-LINE-THAT-MUST-NOT-LEAK";

/// Every way a source sent over HTTP could name a file outside the folder is refused, by POST
/// and by PUT, without a line of the file in the answer.
#[test]
fn item_1_a_sent_source_extends_only_bundled_names_and_files_in_the_folder() {
    let root = folder("extends");
    let served = root.join("served");
    std::fs::create_dir_all(served.join("sub")).unwrap();
    std::fs::write(served.join("base.toml"), bundled("chess")).unwrap();
    std::fs::write(
        served.join("sub/tweak.toml"),
        "extends = \"../base.toml\"\n",
    )
    .unwrap();
    std::fs::write(served.join("sub/inner.toml"), "extends = \"chess\"\n").unwrap();
    let outside = root.join("secret.toml");
    std::fs::write(&outside, format!("{SECRET} = 1\n[[[broken\n")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, served.join("link.toml")).unwrap();
    let s = serve::spawn(Config {
        folder: Some(served.clone()),
        ..config("chess")
    })
    .unwrap();
    let refused = [
        "/etc/passwd".to_string(),
        "/proc/self/environ".to_string(),
        outside.display().to_string(),
        "../secret.toml".to_string(),
        "sub/../../secret.toml".to_string(),
        "link.toml".to_string(),
        "sub/tweak.toml".to_string(), // inside, but it names its parent with `..`
    ];
    let game = {
        let (st, body) = send(&s, "POST", "/api/games", json!({}));
        assert_eq!(st, 201, "{body}");
        serde_json::from_str::<Value>(&body).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for parent in &refused {
        let source = format!("extends = {parent:?}\n");
        for (method, path) in [
            ("POST", "/api/games".to_string()),
            ("PUT", format!("/api/games/{game}/variant")),
        ] {
            let (st, body) = send(&s, method, &path, json!({ "source": source }));
            assert_eq!(st, 422, "{method} extends {parent}: {body}");
            assert!(!body.contains(SECRET), "{parent} leaked: {body}");
            assert!(!body.contains("root:"), "{parent} leaked: {body}");
            assert!(body.contains("may extend only"), "{parent}: {body}");
        }
    }
    // Allowed: a bundled name, a file in the folder, one in a subfolder that extends a bundled
    // name.
    for parent in ["chess", "base.toml", "./base.toml", "sub/inner.toml"] {
        let source = format!("extends = {parent:?}\n");
        let (st, body) = send(&s, "POST", "/api/games", json!({ "source": source }));
        assert_eq!(st, 201, "extends {parent}: {body}");
    }
    // Without a folder (a bundled variant served), only bundled names.
    let bare = serve::spawn(config("chess")).unwrap();
    let (st, body) = send(
        &bare,
        "POST",
        "/api/games",
        json!({ "source": "extends = \"base.toml\"\n" }),
    );
    assert_eq!(st, 422, "{body}");
    assert!(body.contains("only a bundled one"), "{body}");
    std::fs::remove_dir_all(&root).unwrap();
}

/// A FIFO (or a device) named by `extends` is refused at once: no worker waits on it.
#[cfg(unix)]
#[test]
fn item_5_extends_naming_a_fifo_or_a_device_answers_at_once() {
    let root = folder("fifo");
    let fifo = root.join("pipe.toml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let s = serve::spawn(Config {
        folder: Some(root.clone()),
        ..config("chess")
    })
    .unwrap();
    let since = Instant::now();
    for _ in 0..20 {
        let (st, body) = send(
            &s,
            "POST",
            "/api/games",
            json!({ "source": "extends = \"pipe.toml\"\n" }),
        );
        assert_eq!(st, 422, "{body}");
        assert!(body.contains("named pipe"), "{body}");
    }
    assert!(since.elapsed() < Duration::from_secs(20));
    // The command line refuses one too, with exit 1 and the reason.
    let tweak = root.join("tweak.toml");
    std::fs::write(&tweak, "extends = \"pipe.toml\"\n").unwrap();
    for target in [tweak.display().to_string(), fifo.display().to_string()] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bulwark"))
            .args(["check", &target])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{target}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("named pipe"), "{err}");
    }
    let dev = std::process::Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["check", "/dev/zero"])
        .output()
        .unwrap();
    assert_eq!(dev.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&dev.stderr).contains("character device"));
    std::fs::remove_dir_all(&root).unwrap();
}

/// Only the names the server listens as reach it (DNS rebinding); others get 421.
#[test]
fn item_2_a_foreign_host_header_is_refused() {
    let s = serve::spawn(Config {
        hosts: vec!["board.lan".to_string()],
        ..config("chess")
    })
    .unwrap();
    let port = s.addr.port();
    for host in [
        "127.0.0.1".to_string(),
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        "LOCALHOST".to_string(),
        format!("[::1]:{port}"),
        "board.lan".to_string(),
        format!("Board.LAN.:{port}"),
    ] {
        let (st, body) = raw(&s, "GET", "/api/variants", &host, None);
        assert_eq!(st, 200, "{host}: {body}");
    }
    for host in [
        "evil.example.com",
        "evil.example.com:7178",
        "127.0.0.1.evil.example.com",
        "localhost.evil.example.com",
        "[::2]",
        "",
    ] {
        for path in ["/", "/api/variants", "/api/games"] {
            let (st, body) = raw(&s, "GET", path, host, None);
            assert_eq!(st, 421, "{host} {path}: {body}");
        }
    }
}

/// When (since `since`) the server closed this connection: reads until end of stream, or gives
/// up at `within` after `since`.
fn closed_within(c: &mut TcpStream, since: Instant, within: Duration) -> Option<Duration> {
    c.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match c.read(&mut buf) {
            Ok(0) => return Some(since.elapsed()),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return Some(since.elapsed());
            }
            Ok(_) | Err(_) => {}
        }
        if since.elapsed() > within {
            return None;
        }
    }
}

/// A client that never finishes its headers is dropped after the header deadline.
#[test]
fn item_3_slow_clients_are_dropped() {
    let s = serve::spawn(config("chess")).unwrap();
    let since = Instant::now();
    let mut silent = TcpStream::connect(s.addr).unwrap();
    let mut partial = TcpStream::connect(s.addr).unwrap();
    partial
        .write_all(b"GET /api/variants HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    let limit = serve::HEADER_TIMEOUT + Duration::from_secs(5);
    let a = closed_within(&mut silent, since, limit).expect("a silent client was not dropped");
    let b = closed_within(&mut partial, since, limit).expect("a slow client was not dropped");
    for t in [a, b] {
        assert!(
            t >= serve::HEADER_TIMEOUT
                .checked_sub(Duration::from_secs(2))
                .unwrap(),
            "{t:?}"
        );
    }
}

/// Past the cap, a connection gets a 503 and is closed; when the others go, it is served again.
#[test]
fn item_3_connections_are_capped() {
    let s = serve::spawn(Config {
        max_connections: 3,
        ..config("chess")
    })
    .unwrap();
    let held: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(s.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let (st, body) = raw(&s, "GET", "/api/variants", "127.0.0.1", None);
    assert_eq!(st, 503, "{body}");
    assert!(body.contains("too many connections"), "{body}");
    drop(held);
    let since = Instant::now();
    loop {
        let (st, _) = raw(&s, "GET", "/api/variants", "127.0.0.1", None);
        if st == 200 {
            break;
        }
        assert!(
            since.elapsed() < Duration::from_secs(10),
            "never served again"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Bollwerk 178 with three pieces whose definitions explode in the start position: listing its
/// turns takes far longer than any limit below.
fn exploding() -> String {
    "extends = \"bollwerk178\"\n\
     [pieces.kings-knight]\nmoves = \"(leap(knight) | step(all))+\"\n\
     [pieces.queen]\nmoves = \"(leap(knight) | step(all))+\"\n\
     [pieces.marshal]\nmoves = \"(leap(knight) | step(all))+\"\n"
        .to_string()
}

/// Engine work past the request's limit stops with a clear 503.
#[test]
fn item_4_work_past_the_request_limit_is_stopped_with_a_message() {
    let s = serve::spawn(Config {
        request_limit: Duration::from_secs(1),
        ..config("chess")
    })
    .unwrap();
    let since = Instant::now();
    let (st, body) = send(&s, "POST", "/api/games", json!({ "source": exploding() }));
    let took = since.elapsed();
    assert_eq!(st, 503, "{body}");
    assert!(body.contains("stopped"), "{body}");
    assert!(took < Duration::from_secs(6), "{took:?}");
    // The server goes on serving.
    let (st, _) = send(&s, "POST", "/api/games", json!({}));
    assert_eq!(st, 201);
}

/// A client that leaves stops its work: the game it held is free again at once, and editing a
/// game's rules does not lock the game while the new text loads.
#[test]
fn item_4_work_stops_when_its_client_leaves() {
    let s = serve::spawn(Config {
        request_limit: Duration::from_mins(10),
        ..config("chess")
    })
    .unwrap();
    // A game of the exploding rules in a position without the exploding pieces: quick.
    let quiet = "1/10/10/10/10/12/12/12/12/12/12/12/5K6/10/10/10/10/1 w";
    let (st, body) = send(
        &s,
        "POST",
        "/api/games",
        json!({ "source": exploding(), "position": quiet }),
    );
    assert_eq!(st, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    // Ask for the start position (slow), and leave after half a second.
    leave_and_find_the_game_free(&s, &id, "position", &json!({ "position": null }));
}

/// Posts `body` to the game's `action` and leaves half a second later; then the game answers a
/// request that needs its lock (its variant text) within a few seconds.
fn leave_and_find_the_game_free(s: &Running, id: &str, action: &str, body: &Value) {
    let mut c = TcpStream::connect(s.addr).unwrap();
    let body = body.to_string();
    write!(
        c,
        "POST /api/games/{id}/{action} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    drop(c);
    let since = Instant::now();
    let (st, body) = raw(
        s,
        "GET",
        &format!("/api/games/{id}/variant"),
        "127.0.0.1",
        None,
    );
    assert_eq!(st, 200, "{body}");
    assert!(
        since.elapsed() < Duration::from_secs(5),
        "the game stayed locked for {:?} after its client left",
        since.elapsed()
    );
}

/// The same for ordinary work: the computer thinking for ten seconds on a Bollwerk 178 game
/// stops when its client leaves (no budget of unusual work is involved).
#[test]
fn item_4_the_computer_stops_thinking_when_its_client_leaves() {
    let s = serve::spawn(Config {
        request_limit: Duration::from_mins(10),
        ..config("bollwerk178")
    })
    .unwrap();
    let (st, body) = send(&s, "POST", "/api/games", json!({}));
    assert_eq!(st, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    leave_and_find_the_game_free(&s, &id, "computer", &json!({ "agent": "search:10000" }));
}
