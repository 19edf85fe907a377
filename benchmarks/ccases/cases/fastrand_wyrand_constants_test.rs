// wynot Rust case: fastrand 1.9.0 -> 2.1.0, "Change the RNG algorithm and
// the way that the seed is computed ... Update to the final WyRand v4.2
// constants" (CHANGELOG.md, 2.1.0, #82): the first u64 of Rng::with_seed(7)
// was 16292765481176799425 and is 14266376187910451857 in 2.1.0. On the way,
// 2.0.0 removed the interior mutability of Rng (methods take &mut self) and
// moved the global generator into a module of its own.
// Exit 0: old behaviour; 1: new; 125: anything else (a panic included: the
// program catches it, since an uncaught panic exits 101).
#![allow(unused_mut)]

use std::panic;
use std::process;

const OLD: u64 = 16292765481176799425;
const NEW: u64 = 14266376187910451857;

fn main() {
    let got = panic::catch_unwind(|| {
        let mut rng = fastrand::Rng::with_seed(7);
        let first = rng.u64(..);
        let bounded: Vec<usize> = (0..100).map(|_| rng.usize(10..20)).collect();
        (first, bounded)
    });
    let (first, bounded) = match got {
        Ok(values) => values,
        Err(_) => {
            println!("UNRESOLVED: fastrand panicked");
            process::exit(125);
        }
    };
    if bounded.iter().any(|&n| !(10..20).contains(&n)) {
        println!("UNRESOLVED: usize(10..20) gave {:?}", bounded);
        process::exit(125);
    }
    match first {
        OLD => {
            println!("PASS: Rng::with_seed(7).u64(..) = {} (the old constants)", first);
            process::exit(0);
        }
        NEW => {
            println!("FAIL: Rng::with_seed(7).u64(..) = {} (WyRand v4.2 constants)", first);
            process::exit(1);
        }
        _ => {
            println!("UNRESOLVED: Rng::with_seed(7).u64(..) = {}", first);
            process::exit(125);
        }
    }
}
