//! The command line's shape: the subcommands, their flags and `--help`
//! texts (clap), and the readers of the flags' values.

use cardboard::drivers::perft::MAX_DEPTH;
use cardboard::drivers::report::Branching;
use cardboard::drivers::simulate::Shard;
use cardboard::drivers::{parse_set, DEFAULT_MAX_DECISIONS};
use cardboard::engine::limits::{self, Limits};
use cardboard::engine::GameOptions;
use cardboard::play::server::cli::{JoinArgs, ServeArgs};
use cardboard::search::seats::Seats;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// cardboard: reads card and board games described in RECYCLE, checks their
/// rules, plays them, and simulates thousands of games for statistics.
#[derive(Parser, Debug)]
#[command(name = "cardboard", version, propagate_version = true)]
#[command(after_help = "Examples:
  cardboard check games/agram.rcy
  cardboard run games/agram.rcy --seed 7 --set NUMP=3
  cardboard simulate games/agram.rcy --games 10000 --json
  cardboard perft games/agram.rcy 4
  cardboard fmt games/agram.rcy
  cardboard run games/agram.rcy --seed 7 --save-at 5 --save trick2.pos
  cardboard run games/agram.rcy --position trick2.pos --seed 1
  cardboard play games/agram.rcy --seats human,mcts:2000,random,random
  cardboard test games

Positions (--position, --save) are described in docs/positions.md.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check rules files: a good file prints nothing; a bad one prints every
    /// error found, with file, line and column. A file that compiles may
    /// get warnings, for what most likely holds a typo: a location only
    /// ever read and never filled, a `cardatt` of an attribute no deck
    /// defines (with "did you mean" where a close name exists).
    ///
    /// Exit code: 0 when all files are good (with warnings or not), 1 when
    /// some have errors (or warnings, with --deny-warnings), 2 when some
    /// cannot be read.
    #[command(after_help = "Example:\n  cardboard check games/*.rcy")]
    Check {
        /// The rules files (`.rcy`).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Treat warnings as errors: exit 1 when a file has any.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Run a language server for rules files on standard input and output
    /// (for editors: see docs/editors.md): errors and warnings as you type,
    /// formatting.
    #[command(after_help = "Examples:
  cardboard lsp    started by the editor, which talks to it over stdio")]
    Lsp,
    /// Format rules files in the canonical layout: lists that fit stay on
    /// one line, longer ones break with one item per line, items aligned
    /// under the first argument (the blocks of a game, `game`, `setup`,
    /// `stage`, `choice`, indented by two); comments stay where they
    /// are, commas after items are kept, at most one blank line is kept
    /// between items. Formatting twice changes nothing, and a formatted
    /// file always means what the original meant.
    ///
    /// A folder stands for the `.rcy` files under it; `-` reads standard
    /// input and prints the result. A file that does not parse is told
    /// with file, line and column, and left as it is.
    ///
    /// Exit code: 0 when all went well (with --check: all files are
    /// formatted), 1 when some files do not parse (with --check: or are
    /// not formatted; their names are printed), 2 when some cannot be read
    /// or written.
    #[command(after_help = "Examples:
  cardboard fmt games/mygame.rcy          rewrite the file in place
  cardboard fmt --check games examples    list the files not formatted (CI)
  cardboard fmt --stdout games/agram.rcy  print the formatted text
  cardboard fmt - < mygame.rcy            format standard input")]
    Fmt {
        /// The rules files (`.rcy`) or folders; `-` for standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Change nothing: print the names of the files that are not
        /// formatted and exit 1 if there are any.
        #[arg(long, conflicts_with = "stdout")]
        check: bool,
        /// Print the formatted text instead of rewriting the files.
        #[arg(long)]
        stdout: bool,
        /// The line width to break lists at.
        #[arg(long, default_value_t = cardboard::fmt::DEFAULT_WIDTH, value_name = "COLUMNS")]
        width: usize,
    },
    /// Play one game with random players and print its transcript: the
    /// setup, every decision (player, legal moves, move taken), the result.
    ///
    /// The same file, seed and settings always give the same transcript.
    ///
    /// With --save, the position where the game stops (at its end, or after
    /// --save-at decisions) is written to a file, to be started from with
    /// --position.
    #[command(after_help = "Examples:
  cardboard run games/agram.rcy --seed 7 --set NUMP=3
  cardboard run games/agram.rcy --seed 7 --save-at 5 --save trick2.pos
  cardboard run games/agram.rcy --position trick2.pos --seed 3")]
    Run {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        seats: SeatsArgs,
        #[command(flatten)]
        decisions: DecisionsArgs,
        /// Write the position where the game stops to this file (see
        /// docs/positions.md).
        #[arg(long, value_name = "POS")]
        save: Option<PathBuf>,
        /// Stop after N decisions (counted in this run) and save the position
        /// there (needs --save).
        #[arg(long, value_name = "N", requires = "save")]
        save_at: Option<u64>,
    },
    /// Play a game at the terminal: people (`human` seats) against each
    /// other or the computer. Each person sees the game from their own
    /// side only and picks a move by its number or its words; several
    /// people at one terminal pass the screen between turns.
    ///
    /// Exit code 0 when the game was played to its end (or left with
    /// `quit`), 1 when it could not be played or failed, 3 when the input
    /// ended first.
    #[command(after_help = "Examples:
  cardboard play games/agram.rcy --seats human,mcts:2000,random,random
  cardboard play games/cardbot-derby.rcy --seats human,human --set NUMP=2
  cardboard play games/agram.rcy --seed 3 --transcript game.json
  cardboard play games/agram.rcy --moves game.json
  cardboard play games/agram.rcy --moves served.json --game 2 --seats random,random

A record (--transcript, serve --record, --moves) is the game's seed and
settings and every move as a command, JSON (docs/protocol.md, \"A game's
record\").
At the prompt, `help` lists the commands (look, save FILE, transcript FILE, quit).")]
    Play {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        /// Who plays each seat, in seat order: human (a person at this
        /// terminal), random, mcts[:BUDGET], ismcts[:BUDGET] (iterations or SECONDSs),
        /// separated by commas; seats not named are random [default:
        /// human, then random seats].
        #[arg(long, value_name = "SEATS", value_parser = Seats::parse)]
        seats: Option<Seats>,
        #[command(flatten)]
        decisions: DecisionsArgs,
        /// Play a saved game again: a record, as --transcript and `serve
        /// --record` write it. The game starts with the record's seed and
        /// settings (which also seed the computer seats), its moves are
        /// played, each checked as a server checks it, and the game goes
        /// on from there with --seats (with --position: the position the
        /// record started from).
        #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "set"])]
        moves: Option<PathBuf>,
        /// With --moves: which game of the file to play (from 0, in the
        /// file's order; `serve --record` writes one per game played).
        #[arg(long = "game", value_name = "K", requires = "moves")]
        record_game: Option<usize>,
        /// When the game ends or is left, write its record (seed,
        /// settings, every move as a command) to this file, for --moves.
        #[arg(long, value_name = "FILE")]
        transcript: Option<PathBuf>,
        /// When the game ends or is left, write its position to this file
        /// (docs/positions.md; it holds every hidden card).
        #[arg(long, value_name = "POS")]
        save: Option<PathBuf>,
        /// Ask for a forced move (a decision with one legal move) as for
        /// any other; without it, such a move plays itself after a short
        /// pause.
        #[arg(long)]
        no_auto_forced: bool,
    },
    /// Play many games with random players and report how they went: who
    /// wins, how long games last, how many moves a player has to choose from.
    ///
    /// Game i depends only on --seed and i, so the report is the same for any
    /// --jobs. Exit code 1 when some game failed with a rules error (a game
    /// stopped at the limit is not an error).
    #[command(after_help = "Examples:
  cardboard simulate games/agram.rcy --games 10000
  cardboard simulate games/agram.rcy --games 1000 --set NUMP=5 --jobs 1 --json")]
    Simulate {
        /// The rules file.
        file: PathBuf,
        /// Number of games (at least 1).
        #[arg(long, value_name = "N", value_parser = parse_games)]
        games: u64,
        #[command(flatten)]
        game: GameArgs,
        /// Threads to play on: no more than the cores, nor than the chunks of
        /// 32 games, are started [default: one per core].
        #[arg(long, short = 'j', value_name = "J", value_parser = parse_jobs)]
        jobs: Option<usize>,
        /// Stop a game after this many decisions (counted as stopped).
        #[arg(long, value_name = "M", default_value_t = DEFAULT_MAX_DECISIONS)]
        max_decisions: u64,
        #[command(flatten)]
        seats: SeatsArgs,
        /// Print the report as one JSON object (keys in docs/report.md).
        #[arg(long)]
        json: bool,
        /// Which games have their legal moves counted: `sampled` (games 0,
        /// 50, 100, ...: fast) or `all`.
        #[arg(long, value_name = "WHICH", default_value = "sampled", value_parser = parse_branching)]
        branching: Branching,
        /// Write one row per game (index, seed, end, decisions, winners,
        /// scores, message) to FILE: CSV for a `.csv` name, JSON lines for
        /// `.jsonl`.
        #[arg(long, value_name = "FILE")]
        games_out: Option<PathBuf>,
        /// Write the report as one self-contained HTML page, with charts.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
        /// Play only the games whose index is K mod N (same seeds as the
        /// whole run); `cardboard merge` puts the shards' JSON reports
        /// together.
        #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
        shard: Option<Shard>,
    },
    /// Merge the JSON reports of shards of one simulation (`simulate
    /// --shard K/N --json`) into the report of the whole run.
    ///
    /// Every count and statistic is exactly that of the unsharded run;
    /// `seconds` and `jobs` are the sums of the shards'. Exit code 1 when
    /// some game failed with a rules error, as with simulate.
    #[command(after_help = "Example:
  for k in 0 1 2 3; do cardboard simulate games/agram.rcy --games 100000 --shard $k/4 --json > s$k.json; done
  cardboard merge s0.json s1.json s2.json s3.json --html agram.html")]
    Merge {
        /// The JSON reports.
        #[arg(required = true, value_name = "REPORT")]
        files: Vec<PathBuf>,
        /// Print the merged report as one JSON object.
        #[arg(long)]
        json: bool,
        /// Write the merged report as one self-contained HTML page.
        #[arg(long, value_name = "FILE")]
        html: Option<PathBuf>,
    },
    /// Count the move sequences from the start of a game, depth by depth:
    /// `depth d: nodes N (total T)`, N the nodes at exactly depth d, T the
    /// nodes at depths 1 to d; then the time and nodes per second. Shuffles
    /// are fixed by --seed. The counts are the same for any --jobs.
    #[command(after_help = "Example:\n  cardboard perft games/agram.rcy 4 --seed 1 --jobs 2")]
    Perft {
        /// The rules file.
        file: PathBuf,
        /// How many moves deep to count (at most 10000).
        #[arg(value_parser = parse_depth)]
        depth: usize,
        #[command(flatten)]
        game: GameArgs,
        /// Threads to count on, each taking moves of the start in turn: no
        /// more than the cores, nor than those moves, are started [default:
        /// one per core].
        #[arg(long, short = 'j', value_name = "J", value_parser = parse_jobs)]
        jobs: Option<usize>,
        /// Count the last depth as the number of moves of the positions
        /// before it, without playing them (faster; a rules error met only
        /// while playing a move of the last depth is then not reported).
        /// Said on the first line of the output.
        #[arg(long)]
        bulk: bool,
    },
    /// Run the snapshot tests of rules files: each case of a tests file
    /// (`NAME.tests`, beside `NAME.rcy`) starts a game, plays moves,
    /// records what it pins (legal moves, an observation, the table, the
    /// outcome, a transcript, a perft table) and checks what it expects.
    /// What a case records is compared with its snapshot in `NAME.snap/`;
    /// a difference is shown as a diff with the file and line. The format
    /// is described in docs/authoring.md.
    ///
    /// Exit code 0 when every case passed, 1 when one failed (a snapshot
    /// missing or different, an expectation not met, a tests file or rules
    /// file with errors), 2 when a path cannot be read.
    #[command(after_help = "Examples:
  cardboard test games
  cardboard test mygame.tests --accept
  cardboard test mygame.tests --review

A tests file:
  case the first player has three moves
  seed 1
  set NUMP=2
  moves
  play 0
  expect turn 1
  perft 3")]
    Test {
        /// Tests files, or folders searched for `*.tests` files.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Write every new or changed snapshot (a case whose expectations
        /// fail is not written), and remove the snapshots of no case.
        #[arg(long)]
        accept: bool,
        /// Show each new or changed snapshot and ask whether to write it.
        #[arg(long, conflicts_with = "accept")]
        review: bool,
    },
    /// Serve games over the network: players join seats with `cardboard
    /// join` (or any client of the protocol, docs/protocol.md) at the
    /// WebSocket URL printed at start; the server checks and plays their
    /// moves. Prints one line per game played, then exits.
    #[command(after_help = "Examples:
  cardboard serve games/agram.rcy --port 8080
  cardboard serve games/agram.rcy --seats remote,mcts:500,random,random --games 3
  cardboard join ws://127.0.0.1:8080/ws --name ann")]
    Serve {
        /// The rules file.
        file: PathBuf,
        #[command(flatten)]
        game: GameArgs,
        #[command(flatten)]
        serve: ServeArgs,
    },
    /// Play at a server (`cardboard serve`) from this terminal: the game as
    /// your seat sees it, your moves picked by number or typed.
    #[command(
        after_help = "Example:\n  cardboard join ws://127.0.0.1:8080/ws --name ann --seat 1"
    )]
    Join {
        #[command(flatten)]
        join: JoinArgs,
    },
}

/// Options that fix a game: its seed and the `declare`d constants set, or
/// the position it starts from.
#[derive(Args, Debug)]
pub struct GameArgs {
    /// Seed of the game's chance (shuffles) and of the random players.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Override a `declare`d constant, e.g. --set NUMP=4 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    pub set: Vec<(String, String)>,
    /// Start from the position in this file (docs/positions.md) instead of
    /// the beginning. The position carries its settings and its chance;
    /// --seed then seeds only the random players.
    #[arg(long, value_name = "POS", conflicts_with = "set")]
    pub position: Option<PathBuf>,
    /// Stop a game that runs more than this many steps between two
    /// decisions (a pass through a stage, an item, an item of a collection
    /// looped over).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
    /// Stop a game that runs more than this many steps in all (its
    /// decisions together, counted as --max-steps counts them).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_GAME_STEPS)]
    pub max_game_steps: u64,
    /// Stop a game that keeps more than this many changes to take back
    /// between two decisions (while moves are tried, and for perft and
    /// search, up to the next decision; about 50 bytes each).
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_CHANGES)]
    pub max_changes: u64,
    /// Stop a game that would have more than this many cards in play.
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_CARDS)]
    pub max_cards: u64,
    /// Stop a game at a choice of more than this many legal moves.
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_OPTIONS)]
    pub max_options: u64,
    /// Refuse a game whose table would have more than this many locations
    /// and storages (every space of the boards has one of each name the
    /// rules use), before the boards are built.
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_SLOTS)]
    pub max_slots: u64,
}

/// Who plays the seats of `run` and `simulate` (`play` says it in its
/// own words: its first seat is a person).
#[derive(Args, Debug)]
pub struct SeatsArgs {
    /// Who plays each seat, in seat order: random, mcts[:BUDGET],
    /// ismcts[:BUDGET], separated by commas (e.g. mcts:2000,random); a
    /// budget is iterations, or seconds with an s (mcts:0.5s, not
    /// reproducible); seats not named are random. See docs/search.md.
    #[arg(long, value_name = "SEATS", value_parser = Seats::parse)]
    pub seats: Option<Seats>,
}

/// How long the one game of `run` and `play` may last (`simulate` says
/// what becomes of a game stopped, in its own words).
#[derive(Args, Debug)]
pub struct DecisionsArgs {
    /// Stop the game after this many decisions.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MAX_DECISIONS)]
    pub max_decisions: u64,
}

/// Reads `--games`: a number of games, at least 1.
pub fn parse_games(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("there is nothing to simulate in 0 games: give at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("`{text}` is not a number of games: {e}")),
    }
}

/// Reads `--branching`: `sampled` or `all`.
pub fn parse_branching(text: &str) -> Result<Branching, String> {
    match text {
        "sampled" => Ok(Branching::Sampled),
        "all" => Ok(Branching::All),
        _ => Err(format!("`{text}`: write `sampled` (1 game in 50) or `all`")),
    }
}

/// Reads perft's depth: at most [`MAX_DEPTH`].
pub fn parse_depth(text: &str) -> Result<usize, String> {
    match text.parse::<u64>() {
        Ok(n) if n <= MAX_DEPTH as u64 => Ok(n as usize),
        Ok(_) => Err(format!("perft counts at most {MAX_DEPTH} moves deep")),
        Err(e) => Err(format!("`{text}` is not a depth: {e}")),
    }
}

/// Reads `--jobs`: a number of threads, at least 1.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("give at least 1 thread (the default is one per core)".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("`{text}` is not a number of threads: {e}")),
    }
}

impl GameArgs {
    /// The limits on a game's work and memory (docs/language.md).
    pub fn limits(&self) -> Limits {
        Limits {
            steps: self.max_steps,
            game_steps: self.max_game_steps,
            changes: self.max_changes,
            cards: self.max_cards,
            options: self.max_options,
            slots: self.max_slots,
        }
    }

    pub fn options(&self) -> GameOptions {
        GameOptions {
            seed: self.seed,
            overrides: self.set.clone(),
        }
    }
}
