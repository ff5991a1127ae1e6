//! `bulwark serve` over real HTTP on 127.0.0.1: every endpoint with good and bad input, many
//! clients at once, `--watch`, and the command itself.

use std::io::{BufRead, BufReader};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bulwark::serve::{self, Config, Running, Variant};
use serde_json::{Value, json};

fn bundled(name: &str) -> &'static str {
    bulwark::load::bundled_text(name).unwrap()
}

fn server(variant: &str) -> Running {
    serve::spawn(Config::new(
        SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
        Variant::load(variant, bundled(variant)).unwrap(),
    ))
    .unwrap()
}

/// A response: status, the body as JSON (or as a JSON string when it is not JSON), headers.
struct Reply {
    status: u16,
    body: Value,
    content_type: String,
    location: Option<String>,
}

fn request(s: &Running, method: &str, path: &str, body: Option<Value>) -> Reply {
    let url = format!("http://{}{path}", s.addr);
    let req = ureq::request(method, &url).timeout(Duration::from_mins(2));
    let r = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    let resp = match r {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {path}: {e}"),
    };
    let status = resp.status();
    let content_type = resp.header("content-type").unwrap_or("").to_string();
    let location = resp.header("location").map(String::from);
    let text = resp.into_string().unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    Reply {
        status,
        body,
        content_type,
        location,
    }
}

fn get(s: &Running, path: &str) -> Reply {
    request(s, "GET", path, None)
}

fn post(s: &Running, path: &str, body: Value) -> Reply {
    request(s, "POST", path, Some(body))
}

/// A new game; returns its id.
fn new_game(s: &Running, body: Value) -> String {
    let r = post(s, "/api/games", body);
    assert_eq!(r.status, 201, "{}", r.body);
    r.body["id"].as_str().unwrap().to_string()
}

/// The error message of a 4xx reply, checked to be JSON with a non-empty message.
fn error(r: &Reply, status: u16) -> String {
    assert_eq!(r.status, status, "{}", r.body);
    assert!(
        r.content_type.starts_with("application/json"),
        "{}",
        r.content_type
    );
    let m = r.body["error"].as_str().unwrap().to_string();
    assert!(!m.is_empty());
    m
}

fn history(v: &Value) -> Vec<String> {
    v["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn the_page_is_one_bundled_file_with_nothing_fetched_elsewhere() {
    let s = server("chess");
    let r = get(&s, "/");
    assert_eq!(r.status, 200);
    assert!(r.content_type.starts_with("text/html"));
    let page = r.body.as_str().unwrap();
    for part in [
        "id=\"board\"",
        "id=\"source\"",
        "id=\"diagnostics\"",
        "<script>",
    ] {
        assert!(page.contains(part), "{part}");
    }
    for external in ["src=\"http", "href=\"http", "@import", "src=\"//"] {
        assert!(!page.contains(external), "{external}");
    }
}

#[test]
fn variants_lists_the_bundled_and_the_servers_own() {
    let s = server("xiangqi");
    let r = get(&s, "/api/variants");
    assert_eq!(r.status, 200);
    let names: Vec<&str> = r.body["bundled"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let expected: Vec<&str> = bulwark::BUNDLED.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, expected);
    assert_eq!(r.body["default"], "xiangqi");
    assert_eq!(r.body["watch"], Value::Null);
}

#[test]
fn a_new_game_is_the_servers_variant_or_a_bundled_one_or_given_text() {
    let s = server("chess");
    let r = request(&s, "POST", "/api/games", None);
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_str().unwrap();
    assert_eq!(
        r.location.as_deref(),
        Some(format!("/api/games/{id}").as_str())
    );
    assert_eq!(r.body["position"], CHESS_START);
    assert_eq!(r.body["turns"], 20);
    assert_eq!(r.body["side"], "white");
    assert_eq!(r.body["source"], bundled("chess"));
    assert!(r.body["svg"].as_str().unwrap().contains("data-cell=\"e2\""));

    let r = post(&s, "/api/games", json!({"variant": "xiangqi"}));
    assert_eq!(r.status, 201);
    assert_eq!(r.body["turns"], 44);

    // Bollwerk 178: stones in the hands.
    let r = post(&s, "/api/games", json!({"variant": "bollwerk178"}));
    assert_eq!(r.status, 201);
    let white = r.body["hands"]["white"].as_array().unwrap();
    assert!(
        white
            .iter()
            .any(|i| i["kind"] == "stone" && i["count"].as_u64() > Some(0))
    );

    // Text: a variant of one's own.
    let text = bundled("chess").replace("dist(2)", "dist(2..3)");
    let r = post(&s, "/api/games", json!({"source": text}));
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["turns"], 28);

    // From a position and a history.
    let r = post(
        &s,
        "/api/games",
        json!({"variant": "chess", "history": "e2-e4 e7-e5"}),
    );
    assert_eq!(r.status, 201);
    assert_eq!(history(&r.body), ["e2-e4", "e7-e5"]);
}

#[test]
fn a_bad_new_game_is_a_4xx_that_says_why() {
    let s = server("chess");
    let m = error(&post(&s, "/api/games", json!({"variant": "chequers"})), 404);
    assert!(m.contains("chequers") && m.contains("xiangqi"), "{m}");
    let m = error(&post(&s, "/api/games", json!({"variant": 7})), 400);
    assert!(m.contains("variant"), "{m}");
    let m = error(&post(&s, "/api/games", json!({"colour": "red"})), 400);
    assert!(m.contains("colour"), "{m}");
    let r = ureq::post(&format!("http://{}/api/games", s.addr))
        .set("content-type", "application/json")
        .send_string("{not json");
    let Err(ureq::Error::Status(400, r)) = r else {
        panic!("malformed JSON must be a 400")
    };
    let v: Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
    assert!(v["error"].as_str().unwrap().contains("bad request body"));

    // Text that does not load: 422 with every diagnostic, each with its place.
    let broken = bundled("chess")
        .replace("leap(knight)", "leap(knite)")
        .replace("ride(diagonal)", "ride(diagonals)");
    let r = post(&s, "/api/games", json!({"source": broken}));
    let m = error(&r, 422);
    assert!(m.contains("2 problems"), "{m}");
    let d = r.body["diagnostics"].as_array().unwrap();
    assert_eq!(d.len(), 2);
    let line_of = |needle: &str| broken[..broken.find(needle).unwrap()].matches('\n').count() + 1;
    assert_eq!(d[0]["code"], "bulwark::variant::unknown_direction");
    assert_eq!(d[0]["span"]["line"], line_of("ride(diagonals)"));
    assert_eq!(d[1]["span"]["line"], line_of("leap(knite)"));
    let (a, b) = (
        d[1]["span"]["start"].as_u64().unwrap() as usize,
        d[1]["span"]["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&broken[a..b], "knite");
    assert!(d[1]["rendered"].as_str().unwrap().contains("knite"));
    assert!(!d[1]["help"].as_str().unwrap().is_empty());

    let m = error(
        &post(
            &s,
            "/api/games",
            json!({"variant": "chess", "position": "8/8 w"}),
        ),
        400,
    );
    assert!(m.contains("position"), "{m}");
}

#[test]
fn the_diagram_of_a_piece_has_its_marks_picture_and_counts() {
    let s = server("chess");
    let id = new_game(&s, json!({}));
    let r = get(&s, &format!("/api/games/{id}/diagram?at=e2"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["piece"], "Pawn");
    assert_eq!(r.body["origin"], "e2");
    assert_eq!(r.body["marks"]["e3"], json!(["move"]));
    assert_eq!(r.body["marks"]["e4"], json!(["move"]));
    assert_eq!(r.body["marks"].as_object().unwrap().len(), 3);
    assert_eq!(r.body["counts"]["move"], 2);
    let svg = r.body["svg"].as_str().unwrap();
    assert!(svg.contains(r#"data-cell="e4" data-marks="move""#), "{svg}");
    assert!(svg.contains(r#"data-cell="e2" data-marks="origin""#));
    assert!(svg.contains("move only"), "the legend");

    // Cells are case-insensitive; the knight leaps.
    let r = get(&s, &format!("/api/games/{id}/diagram?at=G1"));
    assert_eq!(r.body["counts"]["move-capture"], 2);

    let m = error(&get(&s, &format!("/api/games/{id}/diagram?at=e5")), 409);
    assert!(m.contains("no piece stands on e5"), "{m}");
    let m = error(&get(&s, &format!("/api/games/{id}/diagram?at=z9")), 404);
    assert!(m.contains("z9"), "{m}");
    error(&get(&s, &format!("/api/games/{id}/diagram")), 400);
    error(&get(&s, "/api/games/nope/diagram?at=e2"), 404);
}

#[test]
fn bollwerk_diagrams_show_stone_marks() {
    let s = server("bollwerk178");
    let id = new_game(&s, json!({}));
    // The Spy on G3 in the start position places stones (the README's diagram example).
    let r = get(&s, &format!("/api/games/{id}/diagram?at=G3"));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["piece"], "Spy");
    assert!(r.body["counts"]["place"].as_u64().unwrap() > 0);
    assert!(
        r.body["svg"]
            .as_str()
            .unwrap()
            .contains("data-marks=\"place\"")
    );
}

#[test]
fn turns_come_with_their_text_and_the_clicks_that_make_them() {
    let s = server("chess");
    let id = new_game(&s, json!({}));
    let r = get(&s, &format!("/api/games/{id}/turns?from=e2"));
    assert_eq!(r.status, 200);
    assert_eq!(r.body["total"], 2);
    let texts: Vec<&str> = r.body["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["e2-e3", "e2-e4"]);
    assert_eq!(r.body["turns"][1]["clicks"], json!(["e2", "e4"]));
    let r = get(&s, &format!("/api/games/{id}/turns"));
    assert_eq!(r.body["total"], 20);
    let r = get(&s, &format!("/api/games/{id}/turns?limit=3"));
    assert_eq!(r.body["total"], 20);
    assert_eq!(r.body["turns"].as_array().unwrap().len(), 3);
    error(&get(&s, &format!("/api/games/{id}/turns?from=k1")), 404);
    error(&get(&s, &format!("/api/games/{id}/turns?limit=many")), 400);

    // A stone turn: the stone's cell is a click after the piece's.
    let id = new_game(&s, json!({"variant": "bollwerk178"}));
    let r = get(&s, &format!("/api/games/{id}/turns?from=G3&limit=100000"));
    let turns = r.body["turns"].as_array().unwrap();
    let placing = turns
        .iter()
        .find(|t| !t["stones"].as_array().unwrap().is_empty())
        .expect("the Spy places stones");
    let clicks = placing["clicks"].as_array().unwrap();
    let stones = placing["stones"].as_array().unwrap();
    assert_eq!(clicks.last().unwrap(), &stones.last().unwrap()["cell"]);
    assert_eq!(clicks[0], "G3");
}

#[test]
fn a_pass_is_offered_on_the_royal_pieces_cell_and_played_by_its_text() {
    let s = server("janggi");
    let id = new_game(&s, json!({}));
    let r = get(&s, &format!("/api/games/{id}/turns?from=e2"));
    let pass = r.body["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["pass"] == true)
        .expect("the general's cell offers the pass");
    assert_eq!(pass["text"], "pass");
    assert_eq!(pass["clicks"], json!(["e2"]));
    for _ in 0..2 {
        let r = post(
            &s,
            &format!("/api/games/{id}/play"),
            json!({"turn": "pass"}),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.body["played"], "pass");
    }
    // Two passes in a row: the game is drawn.
    let m = error(
        &post(
            &s,
            &format!("/api/games/{id}/play"),
            json!({"turn": "pass"}),
        ),
        409,
    );
    assert!(m.contains("passed"), "{m}");
}

#[test]
fn play_undo_redo_and_the_end_of_the_game() {
    let s = server("chess");
    let id = new_game(&s, json!({}));
    let r = post(
        &s,
        &format!("/api/games/{id}/play"),
        json!({"turn": "e2-e4"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["played"], "e2-e4");
    assert_eq!(
        r.body["position"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(r.body["last"], json!(["e2", "e4"]));

    let m = error(
        &post(
            &s,
            &format!("/api/games/{id}/play"),
            json!({"turn": "e7-e4"}),
        ),
        400,
    );
    assert!(m.contains("e7-e4"), "{m}");
    let m = error(
        &post(&s, &format!("/api/games/{id}/play"), json!({"turn": "zz"})),
        400,
    );
    assert!(m.contains("zz"), "{m}");
    error(&post(&s, &format!("/api/games/{id}/play"), json!({})), 400);

    let r = post(&s, &format!("/api/games/{id}/undo"), json!({}));
    assert_eq!(r.status, 200);
    assert_eq!(r.body["position"], CHESS_START);
    assert_eq!(r.body["can_redo"], true);
    error(&post(&s, &format!("/api/games/{id}/undo"), json!({})), 409);
    let r = post(&s, &format!("/api/games/{id}/redo"), json!({}));
    assert_eq!(history(&r.body), ["e2-e4"]);
    error(&post(&s, &format!("/api/games/{id}/redo"), json!({})), 409);

    // The fool's mate: the result, and no turn after it.
    for t in ["f7-f6", "d2-d3", "g7-g5", "d1-h5"] {
        let r = post(&s, &format!("/api/games/{id}/play"), json!({"turn": t}));
        assert_eq!(r.status, 200, "{t}: {}", r.body);
    }
    let r = get(&s, &format!("/api/games/{id}"));
    assert_eq!(r.body["result"]["winner"], "white");
    assert_eq!(r.body["result"]["reason"], "checkmate");
    assert_eq!(r.body["turns"], 0);
    let m = error(
        &post(
            &s,
            &format!("/api/games/{id}/play"),
            json!({"turn": "a7-a6"}),
        ),
        409,
    );
    assert!(m.contains("over"), "{m}");
    error(
        &post(&s, &format!("/api/games/{id}/computer"), json!({})),
        409,
    );
}

#[test]
fn the_computer_plays_a_legal_turn() {
    let s = server("xiangqi");
    let id = new_game(&s, json!({}));
    let r = post(
        &s,
        &format!("/api/games/{id}/computer"),
        json!({"agent": "search:2000n"}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let played = r.body["played"].as_str().unwrap().to_string();
    assert_eq!(history(&r.body), std::slice::from_ref(&played));
    // It was legal at the start: a fresh game accepts it.
    let other = new_game(&s, json!({}));
    let r = post(
        &s,
        &format!("/api/games/{other}/play"),
        json!({"turn": played}),
    );
    assert_eq!(r.status, 200);
    // No body: the default agent. A bad agent: 400.
    let r = request(&s, "POST", &format!("/api/games/{id}/computer"), None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(history(&r.body).len(), 2);
    let m = error(
        &post(
            &s,
            &format!("/api/games/{id}/computer"),
            json!({"agent": "oracle"}),
        ),
        400,
    );
    assert!(m.contains("oracle"), "{m}");
}

#[test]
fn a_position_and_history_can_be_loaded() {
    let s = server("chess");
    let id = new_game(&s, json!({}));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let r = post(
        &s,
        &format!("/api/games/{id}/position"),
        json!({"position": kiwipete}),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    // Kiwipete has 48 first turns (chessprogramming wiki, Perft Results, position 2).
    assert_eq!(r.body["turns"], 48);
    assert_eq!(r.body["start"], kiwipete);
    let r = post(
        &s,
        &format!("/api/games/{id}/position"),
        json!({"position": kiwipete, "history": "e1-g1 h3xg2"}),
    );
    assert_eq!(history(&r.body), ["e1-g1", "h3xg2"]);

    let m = error(
        &post(
            &s,
            &format!("/api/games/{id}/position"),
            json!({"position": "rnbqkbnr/pppppppp/8/8 w"}),
        ),
        400,
    );
    assert!(m.starts_with("bad position text"), "{m}");
    let m = error(
        &post(
            &s,
            &format!("/api/games/{id}/position"),
            json!({"history": "e2-e4 e2-e4"}),
        ),
        400,
    );
    assert!(m.contains("turn 2 `e2-e4`"), "{m}");
    // A refused load changes nothing.
    let r = get(&s, &format!("/api/games/{id}"));
    assert_eq!(history(&r.body), ["e1-g1", "h3xg2"]);
    // No position: the start again.
    let r = post(&s, &format!("/api/games/{id}/position"), json!({}));
    assert_eq!(r.body["position"], CHESS_START);
}

#[test]
fn the_rules_are_edited_live_and_broken_text_changes_nothing() {
    let s = server("chess");
    let id = new_game(&s, json!({}));
    post(
        &s,
        &format!("/api/games/{id}/play"),
        json!({"turn": "e2-e4"}),
    );
    post(
        &s,
        &format!("/api/games/{id}/play"),
        json!({"turn": "e7-e5"}),
    );
    let r = get(&s, &format!("/api/games/{id}/variant"));
    assert_eq!(r.body["source"], bundled("chess"));

    // The pawn's first step may go three cells: the game keeps its turns and counts more.
    let tweak = bundled("chess").replace("dist(2)", "dist(2..3)");
    let r = request(
        &s,
        "PUT",
        &format!("/api/games/{id}/variant"),
        Some(json!({"source": tweak})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.body["kept"].clone(), r.body["dropped"].clone()),
        (json!(2), json!(0))
    );
    let d = get(&s, &format!("/api/games/{id}/diagram?at=d2"));
    assert_eq!(d.body["counts"]["move"], 3);
    assert_eq!(
        get(&s, &format!("/api/games/{id}/variant")).body["source"],
        tweak
    );

    // Broken: 422 with the diagnostic; the game goes on with the last rules that loaded.
    let broken = tweak.replace("leap(knight)", "leap(knite)");
    let r = request(
        &s,
        "PUT",
        &format!("/api/games/{id}/variant"),
        Some(json!({"source": broken})),
    );
    error(&r, 422);
    assert_eq!(
        r.body["diagnostics"][0]["code"],
        "bulwark::variant::unknown_direction"
    );
    let d = get(&s, &format!("/api/games/{id}/diagram?at=d2"));
    assert_eq!(d.body["counts"]["move"], 3);

    // Rules under which a played turn is no longer legal: the turns from it on are dropped.
    let no_double = bundled("chess").replace("| at(pawn-row) ride(forward) dist(2)", "");
    let r = request(
        &s,
        "PUT",
        &format!("/api/games/{id}/variant"),
        Some(json!({"source": no_double})),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        (r.body["kept"].clone(), r.body["dropped"].clone()),
        (json!(0), json!(2))
    );
    assert_eq!(r.body["position"], CHESS_START);
    error(
        &request(
            &s,
            "PUT",
            &format!("/api/games/{id}/variant"),
            Some(json!({})),
        ),
        400,
    );
}

#[test]
fn the_exported_game_replays_with_the_command_line() {
    let s = server("chess");
    let id = new_game(&s, json!({"history": "f2-f3 e7-e5 g2-g4 d8-h4"}));
    let r = get(&s, &format!("/api/games/{id}/export"));
    assert_eq!(r.status, 200);
    assert!(r.content_type.starts_with("text/plain"));
    let text = r.body.as_str().unwrap().to_string();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap()
            .to_string()
    };
    assert_eq!(field("variant"), "chess");
    assert_eq!(field("turns"), "f2-f3 e7-e5 g2-g4 d8-h4");
    assert_eq!(field("result"), "black wins (checkmate)");
    let out = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args([
            "status",
            "chess",
            "--position",
            &field("start"),
            "--history",
            &field("turns"),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "black wins: checkmate"
    );
}

#[test]
fn unknown_games_paths_and_methods_are_4xx_with_a_message() {
    let s = server("chess");
    error(&get(&s, "/api/games/0000"), 404);
    error(&get(&s, "/api/nothing"), 404);
    error(&get(&s, "/favicon.ico"), 404);
    error(&request(&s, "DELETE", "/api/games", None), 405);
    error(&get(&s, "/api/games/0000/play"), 405);
    let id = new_game(&s, json!({}));
    assert_eq!(
        request(&s, "DELETE", &format!("/api/games/{id}"), None).status,
        204
    );
    error(&get(&s, &format!("/api/games/{id}")), 404);
    error(
        &request(&s, "DELETE", &format!("/api/games/{id}"), None),
        404,
    );
    error(&get(&s, "/api/watch"), 404);
    // The server is still there.
    assert_eq!(get(&s, "/api/variants").status, 200);
}

#[test]
fn many_clients_at_once_each_with_its_own_game() {
    let s = server("chess");
    let openings = [
        ["e2-e4", "e7-e5"],
        ["d2-d4", "d7-d5"],
        ["c2-c4", "c7-c5"],
        ["g1-f3", "g8-f6"],
        ["b2-b3", "b7-b6"],
        ["a2-a4", "a7-a5"],
        ["h2-h4", "h7-h5"],
        ["f2-f4", "f7-f5"],
    ];
    std::thread::scope(|scope| {
        for o in &openings {
            let s = &s;
            scope.spawn(move || {
                let id = new_game(s, json!({}));
                for _ in 0..3 {
                    for t in o {
                        let r = post(s, &format!("/api/games/{id}/play"), json!({"turn": t}));
                        assert_eq!(r.status, 200, "{}", r.body);
                    }
                    for _ in 0..2 {
                        post(s, &format!("/api/games/{id}/undo"), json!({}));
                    }
                }
                for t in o {
                    post(s, &format!("/api/games/{id}/play"), json!({"turn": t}));
                }
                let r = get(s, &format!("/api/games/{id}"));
                assert_eq!(history(&r.body), o.to_vec());
            });
        }
    });
}

#[test]
fn the_oldest_game_goes_when_there_are_too_many() {
    let s = server("chess");
    let first = new_game(&s, json!({}));
    let second = new_game(&s, json!({}));
    // Using the first makes the second the oldest.
    assert_eq!(get(&s, &format!("/api/games/{first}")).status, 200);
    for _ in 0..serve::MAX_SESSIONS - 1 {
        new_game(&s, json!({}));
    }
    assert_eq!(get(&s, &format!("/api/games/{first}")).status, 200);
    error(&get(&s, &format!("/api/games/{second}")), 404);
}

#[test]
fn watch_follows_the_file_on_disk() {
    let dir = std::env::temp_dir().join(format!("bulwark-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.toml");
    std::fs::write(&path, bundled("chess")).unwrap();
    let s = serve::spawn(Config {
        watch: Some(path.clone()),
        ..Config::new(
            SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            Variant::load("mine.toml", bundled("chess")).unwrap(),
        )
    })
    .unwrap();
    let r = get(&s, "/api/watch");
    assert_eq!(r.status, 200);
    assert_eq!(r.body["version"], 1);
    assert_eq!(
        get(&s, "/api/variants").body["watch"],
        path.display().to_string()
    );
    let edited = bundled("chess").replace("dist(2)", "dist(2..3)");
    std::fs::write(&path, &edited).unwrap();
    let since = Instant::now();
    loop {
        let r = get(&s, "/api/watch");
        if r.body["version"] == 2 {
            assert_eq!(r.body["source"], edited.as_str());
            break;
        }
        assert!(
            since.elapsed() < Duration::from_secs(20),
            "the change was not seen"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_command_listens_on_127_0_0_1_and_prints_the_address() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["serve", "chess", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    let page = ureq::get(&url).call().unwrap().into_string().unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(page.contains("<title>bulwark</title>"));

    // --watch needs a file on disk.
    let out = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["serve", "no-such-variant.toml", "--watch", "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--watch needs a variant file"));
    // A variant that does not load is reported as `check` reports it.
    let dir = std::env::temp_dir().join(format!("bulwark-serve-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        bundled("chess").replace("leap(knight)", "leap(knite)"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_bulwark"))
        .args(["serve", bad.to_str().unwrap(), "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("knite"));
    std::fs::remove_dir_all(&dir).unwrap();
}
