//! A replay's parts as shared code holds them: the mode's own fields (its setup and inputs, its
//! result's figures) stay the JSON text the file gave until the mode reads them with its own
//! types ([`RunKind`]). So shared code reads, checks, ranks and writes the replays of every
//! mode, including modes it has never heard of, and a mode adds fields without touching it.

use super::{Replay, ReplayError, Timed};
use crate::logic::replay::kind::RunKind;
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use std::fmt;

/// The key under which a run's inputs are kept, in every mode.
const INPUTS: &str = "inputs";
/// The most fields an object of a replay has: a replay has a dozen, its result a few. A file
/// with more is refused before they cost memory (a field name is kept with each).
pub(super) const MAX_FIELDS: usize = 64;

/// The fields of a JSON object, in the order it gives them, each kept as its JSON text.
#[derive(Debug, Clone, Default)]
pub struct Fields(Vec<(String, Box<RawValue>)>);

impl Fields {
    /// The fields of a value that is written as a JSON object.
    fn of<T: Serialize>(value: &T) -> Result<Fields, serde_json::Error> {
        serde_json::from_str(&serde_json::to_string(value)?)
    }

    /// Reads these fields as a `T`, as if they were the object they came from, leaving out the
    /// field `leaving_out` (a run's inputs, the bulk of a file, when its setup is read).
    fn read<T: DeserializeOwned>(&self, leaving_out: Option<&str>) -> Result<T, serde_json::Error> {
        let mut object = String::from("{");
        let kept = self
            .0
            .iter()
            .filter(|(key, _)| Some(key.as_str()) != leaving_out);
        for (at, (key, value)) in kept.enumerate() {
            if at > 0 {
                object.push(',');
            }
            object.push_str(&serde_json::to_string(key)?);
            object.push(':');
            object.push_str(value.get());
        }
        object.push('}');
        serde_json::from_str(&object)
    }

    /// The field named `key`, taken out.
    fn take(&mut self, key: &str) -> Option<Box<RawValue>> {
        let at = self.0.iter().position(|(name, _)| name == key)?;
        Some(self.0.remove(at).1)
    }

    fn get(&self, key: &str) -> Option<&RawValue> {
        self.0
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_ref())
    }

    fn push(&mut self, key: &str, value: Box<RawValue>) {
        self.0.push((key.to_owned(), value));
    }
}

impl PartialEq for Fields {
    /// The same fields with the same JSON text, in any order (as JSON objects compare).
    fn eq(&self, other: &Fields) -> bool {
        fn sorted(fields: &Fields) -> Vec<(&str, &str)> {
            let mut pairs: Vec<(&str, &str)> = (fields.0.iter())
                .map(|(key, value)| (key.as_str(), value.get()))
                .collect();
            pairs.sort_unstable();
            pairs
        }
        self.0.len() == other.0.len() && sorted(self) == sorted(other)
    }
}

impl Serialize for Fields {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Fields, D::Error> {
        struct FieldsVisitor;
        impl<'de> Visitor<'de> for FieldsVisitor {
            type Value = Fields;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
                let mut fields = Fields::default();
                while let Some(key) = map.next_key::<String>()? {
                    if fields.0.len() == MAX_FIELDS {
                        return Err(serde::de::Error::custom(format!(
                            "an object has more than {MAX_FIELDS} fields"
                        )));
                    }
                    if fields.get(&key).is_some() {
                        return Err(serde::de::Error::custom(format!(
                            "the field {key:?} is there twice"
                        )));
                    }
                    let value = map.next_value::<Box<RawValue>>()?;
                    fields.0.push((key, value));
                }
                Ok(fields)
            }
        }
        deserializer.deserialize_map(FieldsVisitor)
    }
}

/// A field's JSON text read as a `T`; what went wrong names the field.
fn field<T: DeserializeOwned>(fields: &Fields, key: &str) -> Result<T, String> {
    let raw = fields
        .get(key)
        .ok_or_else(|| format!("it has no \"{key}\""))?;
    serde_json::from_str(raw.get()).map_err(|err| format!("its \"{key}\": {err}"))
}

fn invalid(why: impl fmt::Display) -> ReplayError {
    ReplayError::Invalid(super::printable(&why.to_string(), super::MAX_MESSAGE_CHARS))
}

/// Refuses another mode's part.
fn check_mode<K: RunKind>(mode: &str) -> Result<(), ReplayError> {
    if mode == K::MODE {
        Ok(())
    } else {
        Err(invalid(format!(
            "it is a {mode} run, not a {} run",
            K::MODE
        )))
    }
}

/// A value as JSON text; `null` for what JSON cannot hold (no value of the game's own is such).
fn raw<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// The mode of a run and its own fields: its setup (what decides the run besides the seed and
/// the difficulty: the maze's size) and its inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct ModeRun {
    mode: String,
    fields: Fields,
}

impl ModeRun {
    /// A run of mode `K` with this setup and these inputs.
    pub fn of<K: RunKind>(setup: &K::Setup, inputs: &[Timed<K::Input>]) -> ModeRun {
        let mut fields = Fields::of(setup).unwrap_or_default();
        fields.push(INPUTS, raw(inputs));
        ModeRun {
            mode: K::MODE.to_owned(),
            fields,
        }
    }

    /// The mode's name, as the file writes it.
    pub fn mode(&self) -> &str {
        &self.mode
    }

    /// The run's setup, read by its mode.
    pub fn setup<K: RunKind>(&self) -> Result<K::Setup, ReplayError> {
        check_mode::<K>(&self.mode)?;
        self.fields
            .read(Some(INPUTS))
            .map_err(|err| invalid(format!("its {} setup: {err}", K::MODE)))
    }

    /// The run's inputs, read by its mode.
    pub fn inputs<K: RunKind>(&self) -> Result<Vec<Timed<K::Input>>, ReplayError> {
        check_mode::<K>(&self.mode)?;
        field(&self.fields, INPUTS).map_err(invalid)
    }

    /// Changes the run's setup and inputs as its mode reads them (what the tests of hostile
    /// files do to a genuine one).
    pub fn edit<K: RunKind>(
        &mut self,
        change: impl FnOnce(&mut K::Setup, &mut Vec<Timed<K::Input>>),
    ) -> Result<(), ReplayError> {
        let (mut setup, mut inputs) = (self.setup::<K>()?, self.inputs::<K>()?);
        change(&mut setup, &mut inputs);
        *self = ModeRun::of::<K>(&setup, &inputs);
        Ok(())
    }
}

/// How a run ended: what every mode's result has (its length, and whether the computer played)
/// and the mode's own figures (the runner's score, the maze's moves).
#[derive(Debug, Clone, PartialEq)]
pub struct RunResult {
    mode: String,
    /// Fixed steps run.
    pub ticks: u64,
    /// The computer played at some point (the autopilot, the system walk).
    pub assisted: bool,
    own: Fields,
}

impl RunResult {
    /// The result of a run of mode `K`.
    pub fn of<K: RunKind>(ticks: u64, assisted: bool, outcome: &K::Outcome) -> RunResult {
        RunResult {
            mode: K::MODE.to_owned(),
            ticks,
            assisted,
            own: Fields::of(outcome).unwrap_or_default(),
        }
    }

    /// The mode's name, as the file writes it.
    pub fn mode(&self) -> &str {
        &self.mode
    }

    /// The mode's own figures, read by its mode.
    pub fn outcome<K: RunKind>(&self) -> Result<K::Outcome, ReplayError> {
        check_mode::<K>(&self.mode)?;
        self.own
            .read(None)
            .map_err(|err| invalid(format!("its {} result: {err}", K::MODE)))
    }

    /// Changes the mode's own figures as its mode reads them.
    pub fn edit<K: RunKind>(
        &mut self,
        change: impl FnOnce(&mut K::Outcome),
    ) -> Result<(), ReplayError> {
        let mut outcome = self.outcome::<K>()?;
        change(&mut outcome);
        *self = RunResult::of::<K>(self.ticks, self.assisted, &outcome);
        Ok(())
    }
}

impl Serialize for RunResult {
    /// The mode first, the length, the mode's figures and whether the computer played last.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.own.0.len() + 3))?;
        map.serialize_entry("mode", &self.mode)?;
        map.serialize_entry("ticks", &self.ticks)?;
        for (key, value) in &self.own.0 {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry("assisted", &self.assisted)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for RunResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RunResult, D::Error> {
        let mut own = Fields::deserialize(deserializer)?;
        let read = |own: &mut Fields| -> Result<RunResult, String> {
            let result = RunResult {
                mode: mode_name(field(own, "mode")?)?,
                ticks: field(own, "ticks")?,
                assisted: field(own, "assisted")?,
                own: Fields::default(),
            };
            for key in ["mode", "ticks", "assisted"] {
                own.take(key);
            }
            Ok(result)
        };
        let mut result = read(&mut own).map_err(serde::de::Error::custom)?;
        result.own = own;
        Ok(result)
    }
}

/// The keys every replay has before its mode, in the order they are written.
const HEAD_KEYS: [&str; 7] = [
    "format",
    "version",
    "game_version",
    "seed",
    "seed_text",
    "difficulty",
    "recorded_unix_s",
];

/// The longest name of a mode.
const MAX_MODE_CHARS: usize = 32;

/// A mode's name as a file gives it: at most [`MAX_MODE_CHARS`] lowercase letters, digits, `-`
/// and `_`, so that it can be part of a board's folder name and be shown as it is.
fn mode_name(name: String) -> Result<String, String> {
    let fits = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
    if !name.is_empty() && name.len() <= MAX_MODE_CHARS && name.chars().all(fits) {
        Ok(name)
    } else {
        Err(format!(
            "its mode is not a mode's name (at most {MAX_MODE_CHARS} lowercase letters, digits, \
             '-' and '_')"
        ))
    }
}

/// A shared field's JSON text read as a `T`; what went wrong names the field.
fn parsed<T: DeserializeOwned>(key: &str, raw: Result<Box<RawValue>, String>) -> Result<T, String> {
    serde_json::from_str(raw?.get()).map_err(|err| format!("its \"{key}\": {err}"))
}

impl TryFrom<Fields> for Replay {
    type Error = String;

    /// A replay file's fields: the shared ones read into their types, the rest the mode's own.
    fn try_from(mut fields: Fields) -> Result<Replay, String> {
        let mut take = |key: &str| {
            fields
                .take(key)
                .ok_or_else(|| format!("it has no \"{key}\""))
        };
        let [
            format,
            version,
            game_version,
            seed,
            seed_text,
            difficulty,
            recorded,
        ] = HEAD_KEYS.map(&mut take);
        let (mode, checks, result) = (take("mode"), take("checks"), take("result"));
        Ok(Replay {
            format: parsed("format", format)?,
            version: parsed("version", version)?,
            game_version: parsed("game_version", game_version)?,
            seed: parsed("seed", seed)?,
            seed_text: parsed("seed_text", seed_text)?,
            difficulty: parsed("difficulty", difficulty)?,
            recorded_unix_s: parsed("recorded_unix_s", recorded)?,
            checks: parsed("checks", checks)?,
            result: parsed("result", result)?,
            run: ModeRun {
                mode: mode_name(parsed("mode", mode)?)?,
                fields,
            },
        })
    }
}

impl Serialize for Replay {
    /// In the order the game has always written replays: the head, the mode and its own
    /// fields, the fingerprints, the result.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let own = &self.run.fields.0;
        let mut map = serializer.serialize_map(Some(HEAD_KEYS.len() + own.len() + 3))?;
        map.serialize_entry("format", &self.format)?;
        map.serialize_entry("version", &self.version)?;
        map.serialize_entry("game_version", &self.game_version)?;
        map.serialize_entry("seed", &self.seed)?;
        map.serialize_entry("seed_text", &self.seed_text)?;
        map.serialize_entry("difficulty", &self.difficulty)?;
        map.serialize_entry("recorded_unix_s", &self.recorded_unix_s)?;
        map.serialize_entry("mode", &self.run.mode)?;
        for (key, value) in own {
            map.serialize_entry(key, value)?;
        }
        map.serialize_entry("checks", &self.checks)?;
        map.serialize_entry("result", &self.result)?;
        map.end()
    }
}
