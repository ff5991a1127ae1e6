//! The engine says why a requested turn is not legal, as a typed value (`Game::request`);
//! move text only prints it. Bollwerk 178's rulings as the examples.

mod common;

use bulwark::Game;
use bulwark::play::{Refusal, Request};
use bulwark::rules::Whose;
use common::{pos, rules};

fn cell(n: &str) -> bulwark::Cell {
    rules().topo.parse_cell(n).unwrap()
}

fn stone(symbol: char) -> bulwark::core::StoneKindId {
    let k = rules().stones.iter().position(|s| s.symbol == symbol);
    bulwark::core::StoneKindId::new(k.unwrap())
}

#[test]
fn b44_no_stone_in_ones_own_end_zone() {
    let mut g = Game::new(rules(), pos("C5=Q K14=g")).unwrap();
    let req = Request {
        from: cell("C5"),
        place: vec![(stone('^'), cell("C4"))],
        ..Request::default()
    };
    match g.request(&req) {
        Err(Refusal::ForbiddenRegion {
            cell: c,
            whose: Whose::Own,
            region,
        }) => {
            assert_eq!(c, cell("C4"));
            assert_eq!(rules().regions[region.index()].id, "end-zone");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn b48_taboo_cell_takes_no_stone() {
    // White bombs the arrow on G7; Black may not place on G7 in its next turn.
    let mut g = Game::new(rules(), pos("F6=Q G7=^ G10=q K14=g")).unwrap();
    let t = g
        .request(&Request {
            from: cell("F6"),
            place: vec![(stone('@'), cell("G7"))],
            ..Request::default()
        })
        .unwrap();
    g.play(&t);
    let r = g.request(&Request {
        from: cell("G10"),
        place: vec![(stone('^'), cell("G7"))],
        ..Request::default()
    });
    assert_eq!(r, Err(Refusal::Taboo(cell("G7"))));
}

#[test]
fn b40_requests_name_the_first_thing_wrong() {
    let mut g = Game::new(rules(), pos("F6=N K14=g")).unwrap();
    assert_eq!(
        g.request(&Request {
            from: cell("F7"),
            to: Some(cell("F8")),
            ..Request::default()
        }),
        Err(Refusal::NoPiece(cell("F7")))
    );
    assert!(matches!(
        g.request(&Request {
            from: cell("K14"),
            to: Some(cell("K13")),
            ..Request::default()
        }),
        Err(Refusal::NotYourPiece { .. })
    ));
    assert!(matches!(
        g.request(&Request {
            from: cell("F6"),
            to: Some(cell("F7")),
            ..Request::default()
        }),
        Err(Refusal::NotAMove { .. })
    ));
    assert_eq!(
        g.request(&Request {
            from: cell("F6"),
            ..Request::default()
        }),
        Err(Refusal::Pass)
    );
    // B-46: the Knight removes stones, but there is none on G8.
    assert!(matches!(
        g.request(&Request {
            from: cell("F6"),
            remove: Some(cell("G8")),
            ..Request::default()
        }),
        Err(Refusal::NothingToRemove { .. })
    ));
    // A legal request is the legal turn.
    let t = g
        .request(&Request {
            from: cell("F6"),
            to: Some(cell("G8")),
            ..Request::default()
        })
        .unwrap();
    assert_eq!(bulwark::turn_text(rules(), &t), "F6-G8");
}
