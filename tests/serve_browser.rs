//! The web board in a real headless Chromium, driven through `WebDriver` (chromedriver): open the
//! page, click a piece and check the marks drawn, play turns by clicking (a move, and a Bollwerk
//! 178 turn that places a stone), let the computer move, undo, break the variant text and see
//! the diagnostic, then tweak it and see the diagram change. And `compare --html`'s report page,
//! opened from disk.
//!
//! `.ci/run` installs Debian's `chromium` and `chromium-driver`. Without them the test says so
//! and passes, except under CI (`CI` set), where a missing browser is a failure. With
//! `BULWARK_SCREENSHOTS=1` it writes the README's screenshots into `docs/screenshots/`.

use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bulwark::serve::{self, Config, Variant};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
const WAIT: Duration = Duration::from_mins(1);

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts chromedriver and waits until it answers.
fn chromedriver() -> (Driver, String) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let url = format!("http://127.0.0.1:{port}");
    let since = Instant::now();
    while ureq::get(&format!("{url}/status")).call().is_err() {
        assert!(since.elapsed() < WAIT, "chromedriver did not answer");
        std::thread::sleep(Duration::from_millis(100));
    }
    (Driver(child), url)
}

fn bundled(name: &str) -> &'static str {
    bulwark::load::bundled_text(name).unwrap()
}

async fn browser(webdriver: &str) -> Client {
    let caps = json!({
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
            ],
        }
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(webdriver)
        .await
        .expect("a Chromium session")
}

/// Waits until the script returns true.
async fn until(c: &Client, what: &str, script: &str) {
    let since = Instant::now();
    loop {
        let v = c.execute(script, vec![]).await.unwrap();
        if v == Value::Bool(true) {
            return;
        }
        assert!(since.elapsed() < WAIT, "waited in vain for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn eval(c: &Client, script: &str) -> Value {
    c.execute(script, vec![]).await.unwrap()
}

async fn click_cell(c: &Client, cell: &str) {
    c.find(Locator::Css(&format!(
        r#"#board rect.cell[data-cell="{cell}"]"#
    )))
    .await
    .unwrap()
    .click()
    .await
    .unwrap();
}

/// The text of the element found.
async fn text_of(c: &Client, at: Locator<'_>) -> String {
    c.find(at).await.unwrap().text().await.unwrap()
}

async fn history(c: &Client) -> Vec<String> {
    let v = eval(
        c,
        "return [...document.querySelectorAll('#history li')].map(li => li.textContent);",
    )
    .await;
    serde_json::from_value(v).unwrap()
}

async fn wait_history(c: &Client, n: usize) {
    until(
        c,
        &format!("{n} turns in the history"),
        &format!("return document.querySelectorAll('#history li').length === {n};"),
    )
    .await;
}

/// Replaces text in the variant editor as typing would (an `input` event).
async fn edit_source(c: &Client, from: &str, to: &str) {
    c.execute(
        "const t = document.getElementById('source'); \
         t.value = t.value.replace(arguments[0], arguments[1]); \
         t.dispatchEvent(new Event('input'));",
        vec![json!(from), json!(to)],
    )
    .await
    .unwrap();
}

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let dir = if std::env::var_os("BULWARK_SCREENSHOTS").is_some() {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots")
    } else {
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots")
    };
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

#[test]
fn the_board_in_chromium_diagrams_play_and_live_rules() {
    if !Path::new(CHROMEDRIVER).exists() || !Path::new(CHROMIUM).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install chromium and chromium-driver (see .ci/run)"
        );
        eprintln!("skipped: {CHROMIUM} or {CHROMEDRIVER} is not installed");
        return;
    }
    let server = serve::spawn(Config::new(
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        Variant::load("chess", bundled("chess")).unwrap(),
    ))
    .unwrap();
    let (_driver, webdriver) = chromedriver();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    // The session runs as a task, so that a failure in it still closes the browser.
    let (url, addr) = (server.url(), server.addr);
    let outcome = runtime.block_on(async {
        let c = browser(&webdriver).await;
        let driven = c.clone();
        let outcome = tokio::spawn(async move { session(&driven, &url, addr).await }).await;
        let _ = c.close().await;
        outcome
    });
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

async fn session(c: &Client, url: &str, addr: SocketAddr) {
    c.goto(url).await.unwrap();
    until(
        c,
        "the page",
        "return document.body.dataset.ready === 'yes';",
    )
    .await;
    let status = text_of(c, Locator::Id("status")).await;
    assert!(status.contains("white to move"), "{status}");
    assert!(status.contains("20 legal turns"), "{status}");

    // Click a pawn: its diagram, with the marks drawn on the board.
    click_cell(c, "e2").await;
    until(
        c,
        "the pawn's diagram",
        r#"return !!document.querySelector('#board rect.cell[data-cell="e4"][data-marks~="move"]');"#,
    )
    .await;
    let piece = text_of(c, Locator::Id("piece-text")).await;
    assert!(piece.starts_with("Pawn (P) on e2"), "{piece}");
    let marked = eval(
        c,
        r"return [...document.querySelectorAll('#board rect.cell')].filter(r => r.dataset.marks).map(r => r.dataset.cell + ':' + r.dataset.marks);",
    )
    .await;
    assert_eq!(marked, json!(["e2:origin", "e3:move", "e4:move"]));
    // Two crosses (move only) drawn on the board itself, outside the legend.
    let crosses = eval(
        c,
        "return document.querySelectorAll('#board svg > path').length;",
    )
    .await;
    assert_eq!(crosses, json!(2));
    screenshot(c, "serve-diagram.png").await;

    // Play it by clicking the target.
    click_cell(c, "e4").await;
    wait_history(c, 1).await;
    assert_eq!(history(c).await, ["e2-e4"]);
    let status = text_of(c, Locator::Id("status")).await;
    assert!(status.contains("black to move"), "{status}");
    // The last turn's cells are outlined on the board.
    let outlined = eval(
        c,
        r##"return document.querySelectorAll('#board rect[stroke="#f4a100"]').length;"##,
    )
    .await;
    assert_eq!(outlined, json!(2));

    // The computer answers; undo takes its turn back.
    c.execute(
        "document.getElementById('agent').value = 'search:2000n';",
        vec![],
    )
    .await
    .unwrap();
    c.find(Locator::Id("computer-move"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_history(c, 2).await;
    c.find(Locator::Id("undo"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_history(c, 1).await;

    // Break the variant: the diagnostic is shown, with its place; clicking it selects the
    // mistake in the editor.
    edit_source(c, "leap(knight)", "leap(knite)").await;
    until(
        c,
        "the diagnostic",
        "return document.querySelectorAll('#diagnostics li.error').length === 1;",
    )
    .await;
    let diag = text_of(c, Locator::Css("#diagnostics li.error")).await;
    let source = bundled("chess").replace("leap(knight)", "leap(knite)");
    let line = source[..source.find("knite").unwrap()]
        .matches('\n')
        .count()
        + 1;
    assert!(diag.contains("unknown_direction"), "{diag}");
    assert!(diag.contains(&format!("line {line}, column")), "{diag}");
    c.find(Locator::Css("#diagnostics li.error"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let selected = eval(
        c,
        "const t = document.getElementById('source'); return t.value.slice(t.selectionStart, t.selectionEnd);",
    )
    .await;
    assert_eq!(selected, json!("knite"));
    screenshot(c, "serve-diagnostic.png").await;

    // Mend it and tweak the pawn: the open diagram is redrawn under the new rule.
    edit_source(c, "leap(knite)", "leap(knight)").await;
    until(
        c,
        "the mended rules",
        "return document.querySelectorAll('#diagnostics li').length === 0 && document.getElementById('rules-state').textContent.startsWith('loaded');",
    )
    .await;
    click_cell(c, "d2").await;
    until(
        c,
        "the pawn's diagram on d2",
        r#"return !!document.querySelector('#board rect.cell[data-cell="d4"][data-marks~="move"]');"#,
    )
    .await;
    edit_source(c, "dist(2)", "dist(2..3)").await;
    until(
        c,
        "the tweaked diagram",
        r#"return !!document.querySelector('#board rect.cell[data-cell="d5"][data-marks~="move"]');"#,
    )
    .await;
    assert_eq!(history(c).await, ["e2-e4"]);
    c.execute(
        "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}));",
        vec![],
    )
    .await
    .unwrap();

    // Bollwerk 178: a turn that moves a piece and places a stone, made by clicks.
    c.execute(
        "document.getElementById('variant').value = 'bollwerk178';",
        vec![],
    )
    .await
    .unwrap();
    c.find(Locator::Id("new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        c,
        "a Bollwerk game",
        r#"return !!document.querySelector('#board rect.cell[data-cell="G3"]') && document.querySelectorAll('#history li').length === 0;"#,
    )
    .await;
    let id = eval(c, "return sessionStorage.getItem('bulwark-game');").await;
    let id = id.as_str().unwrap().to_string();

    // Two clicks in quick succession, the second made while the first piece's 12,000 turns are
    // still loading: neither is lost.
    c.execute(
        "for (const cell of ['J3', 'K5']) { \
           document.querySelector('#board rect.cell[data-cell=\"' + cell + '\"]') \
             .dispatchEvent(new MouseEvent('click', {bubbles: true})); \
         }",
        vec![],
    )
    .await
    .unwrap();
    until(
        c,
        "the choice of the turns J3 K5 makes",
        r#"return !!document.querySelector('#choices button[data-turn="J3-K5"]');"#,
    )
    .await;
    c.find(Locator::Css(r#"#choices button[data-turn="J3-K5"]"#))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_history(c, 1).await;
    assert_eq!(history(c).await, ["J3-K5"]);
    c.find(Locator::Id("undo"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_history(c, 0).await;

    // A move and then a stone, chosen on the board: the Guard's destination, then the stone's
    // cell (the cells that can follow are marked), then which stone. The turns the clicks
    // already make are a few buttons, the rest a compact list, and the page stays within the
    // window, wide or narrow.
    click_cell(c, "G4").await;
    until(
        c,
        "the Guard's turns",
        "return !!document.querySelector('#board rect.cell[data-marks~=\"move\"]');",
    )
    .await;
    click_cell(c, "G5").await;
    until(
        c,
        "the choices after G5",
        r#"return !!document.querySelector('#choices button[data-turn="G4-G5"]');"#,
    )
    .await;
    let next = eval(
        c,
        "return [...document.querySelectorAll('#board rect.cell.next')].map(r => r.dataset.cell).sort();",
    )
    .await;
    assert!(
        next.as_array().unwrap().contains(&json!("F5")),
        "the stone's cells are marked: {next}"
    );
    let buttons = eval(
        c,
        "return [...document.querySelectorAll('#choices button')].map(b => b.dataset.turn);",
    )
    .await;
    assert_eq!(
        buttons,
        json!(["G4^G5", "G4~G5", "G4#G5", "G4%G5", "G4@G5", "G4-G5"]),
        "the turns that G4 G5 makes, and nothing more, as buttons"
    );
    for width in [1400, 800] {
        c.set_window_size(width, 1000).await.unwrap();
        let fits = eval(
            c,
            "return document.documentElement.scrollWidth <= window.innerWidth;",
        )
        .await;
        assert_eq!(fits, json!(true), "the board page is wider than {width} px");
    }
    c.set_window_size(1400, 1000).await.unwrap();
    c.execute("window.scrollTo(0, 0);", vec![]).await.unwrap();
    screenshot(c, "serve-completion.png").await;
    click_cell(c, "F5").await;
    until(
        c,
        "the stones for F5",
        r#"return !!document.querySelector('#choices button[data-turn="G4-G5#F5"]');"#,
    )
    .await;
    assert_eq!(
        eval(
            c,
            "return document.querySelectorAll('#choices button').length;"
        )
        .await,
        json!(5),
        "one button for each stone kind"
    );
    c.find(Locator::Css(r#"#choices button[data-turn="G4-G5#F5"]"#))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_history(c, 1).await;
    assert_eq!(history(c).await, ["G4-G5#F5"]);
    c.find(Locator::Id("undo"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_history(c, 0).await;

    click_cell(c, "G3").await;
    until(
        c,
        "the Spy's diagram",
        r#"return !!document.querySelector('#board rect.cell[data-marks~="place"]');"#,
    )
    .await;
    screenshot(c, "serve-bollwerk.png").await;
    let turns: Value = ureq::get(&format!(
        "http://{addr}/api/games/{id}/turns?from=G3&limit=100000"
    ))
    .call()
    .unwrap()
    .into_json()
    .unwrap();
    let turn = turns["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["to"].is_string() && !t["stones"].as_array().unwrap().is_empty())
        .expect("the Spy moves and places a stone")
        .clone();
    let text = turn["text"].as_str().unwrap();
    for cell in turn["clicks"].as_array().unwrap().iter().skip(1) {
        click_cell(c, cell.as_str().unwrap()).await;
    }
    // Where several turns share those cells (another stone kind, a second stone), the page
    // lists them: choose this one.
    let chosen = format!(r#"#choices button[data-turn="{text}"]"#);
    if history(c).await.is_empty()
        && let Ok(b) = c.find(Locator::Css(&chosen)).await
    {
        b.click().await.unwrap();
    }
    wait_history(c, 1).await;
    assert_eq!(history(c).await, [text]);

    // Every bundled game's board, drawn as its game is: a picture of each for the README
    // (in a window tall enough for the tallest board).
    c.set_window_size(1400, 1800).await.unwrap();
    for (name, source) in bulwark::BUNDLED {
        let rules = bulwark::Ruleset::from_source(name, source).unwrap();
        c.execute(
            "document.getElementById('variant').value = arguments[0];",
            vec![json!(name)],
        )
        .await
        .unwrap();
        c.find(Locator::Id("new-game"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        until(
            c,
            &format!("the board of {name}"),
            &format!(
                "return document.querySelectorAll('#board rect.cell').length === {} \
                 && document.querySelectorAll('#history li').length === 0 \
                 && document.getElementById('status').textContent.includes('legal turns');",
                rules.topo.len()
            ),
        )
        .await;
        let png = c
            .find(Locator::Id("board"))
            .await
            .unwrap()
            .screenshot()
            .await
            .unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        let dir = if std::env::var_os("BULWARK_SCREENSHOTS").is_some() {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots/boards")
        } else {
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots/boards")
        };
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}

/// `compare --html`: the report page in Chromium, as a designer opens it from disk. Both rule
/// sets' score lines with their bands, both length histograms and the piece bars are drawn, the
/// verdict reads as the JSON says, and the page fits a wide and a narrow window.
#[test]
fn the_compare_report_in_chromium() {
    if !Path::new(CHROMEDRIVER).exists() || !Path::new(CHROMIUM).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install chromium and chromium-driver (see .ci/run)"
        );
        eprintln!("skipped: {CHROMIUM} or {CHROMEDRIVER} is not installed");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("compare-report");
    let _ = std::fs::remove_dir_all(&dir);
    // The rule sets are named by their paths as given, which can be long and have no place to
    // break (a checkout deep in a CI machine's folders): the page must still fit.
    let deep = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("compare-report-input")
        .join("a-checkout-folder-whose-name-is-long-enough-to-overflow-a-narrow-window");
    std::fs::create_dir_all(&deep).unwrap();
    let tweak = deep.join("chess-no-white-queen.toml");
    std::fs::copy(
        format!(
            "{}/tests/variants/controls/chess-no-white-queen.toml",
            env!("CARGO_MANIFEST_DIR")
        ),
        &tweak,
    )
    .unwrap();
    let tweak = tweak.display().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args([
            "compare", "chess", &tweak, "--games", "6", "--json", "--html",
        ])
        .arg(&dir)
        .args(["--white", "search:300n", "--black", "search:300n"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().last().unwrap()).unwrap();
    let url = format!("file://{}", dir.join("index.html").display());
    let (_driver, webdriver) = chromedriver();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let outcome = runtime.block_on(async {
        let c = browser(&webdriver).await;
        let driven = c.clone();
        let outcome = tokio::spawn(async move { report(&driven, &url, &json).await }).await;
        let _ = c.close().await;
        outcome
    });
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

async fn report(c: &Client, url: &str, json: &Value) {
    c.goto(url).await.unwrap();
    until(c, "the page", "return document.readyState === 'complete';").await;
    // One point per game on each score line, and a band around each.
    let points = eval(
        c,
        "return ['a','b'].map(s => document.querySelector('.score-' + s).getAttribute('points').trim().split(' ').length);",
    )
    .await;
    assert_eq!(points, json!([6, 6]));
    assert_eq!(
        eval(
            c,
            "return document.querySelectorAll('#score-chart polygon').length;"
        )
        .await,
        json!(2)
    );
    for id in ["lengths-a", "lengths-b"] {
        let bars = eval(
            c,
            &format!("return document.querySelectorAll('#{id} rect.bar').length;"),
        )
        .await;
        assert_eq!(bars, json!(20), "{id}");
    }
    let pieces = eval(
        c,
        "return document.querySelectorAll('#pieces-chart rect.piece-bar').length;",
    )
    .await;
    assert_eq!(pieces, json!(12), "two bars for each of chess's six kinds");
    let verdict = text_of(c, Locator::Id("verdict")).await;
    let significant = json["white_score"]["significant"].as_bool().unwrap();
    assert_eq!(
        verdict,
        if significant {
            "significant"
        } else {
            "not significant"
        }
    );
    // Never wider than the window, wide or narrow.
    for width in [1400, 800, 600] {
        c.set_window_size(width, 1000).await.unwrap();
        // When the page is too wide, the elements that stick out are named (their own
        // overflow, such as a word with no place to break) so that the failure says what to fix.
        let wide = eval(
            c,
            "const w = document.documentElement.clientWidth; \
             if (document.documentElement.scrollWidth <= window.innerWidth) { return []; } \
             const out = ['page ' + document.documentElement.scrollWidth + ' px wide']; \
             for (const e of document.body.querySelectorAll('*')) { \
               const r = e.getBoundingClientRect(); \
               if (r.right > w + 0.5 || (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)) { \
                 out.push(e.tagName + (e.id ? '#' + e.id : '') + ' ' + Math.round(r.left) + '..' \
                   + Math.round(r.right) + ', content ' + e.scrollWidth + ' in ' + e.clientWidth); \
               } \
             } \
             return out;",
        )
        .await;
        assert_eq!(
            wide,
            json!([]),
            "the page is wider than a {width} px window"
        );
    }
}
