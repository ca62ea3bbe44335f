//! Named actions instead of keys. Each feature declares its actions ([`Controls`]) with their
//! default keys and gamepad buttons, registers them with [`controls_plugin`], and reads what the
//! player does as [`Actions`]: the keyboard, the mouse and any gamepad all press the same
//! actions (through leafwing-input-manager). Hints and tips name an action's bindings with
//! [`bindings_named`], so they show whatever the action is bound to; the player binds actions
//! to keys and buttons of their own choosing ([`rebinding`]).

pub mod rebinding;

use crate::game::keys::key_name;
use bevy::input::gamepad::{GamepadAxis, GamepadButton};
use bevy::prelude::*;
use bevy::reflect::GetTypeRegistration;
use leafwing_input_manager::axislike::AxisDirection;
use leafwing_input_manager::buttonlike::ButtonValue;
use leafwing_input_manager::plugin::InputManagerSystem;
use leafwing_input_manager::prelude::*;
use leafwing_input_manager::user_input::updating::CentralInputStore;

/// How far a stick must lean before it counts as a press in its direction (of 1.0): well past
/// a worn stick's drift.
pub const STICK_PRESS: f32 = 0.5;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LastDevice>().add_systems(
        PreUpdate,
        (
            notice_the_device_in_use.after(bevy::input::InputSystems),
            keep_taps_within_a_frame
                .after(InputManagerSystem::Tick)
                .after(InputManagerSystem::Unify)
                .before(InputManagerSystem::Update),
        ),
    );
}

/// A key or gamepad button pressed and let go within one frame (a quick tap while frames are
/// slow) counts as pressed in that frame, as it does for Bevy's own input: the input crate
/// reads only what is still held when the frame starts, and would lose the tap.
fn keep_taps_within_a_frame(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    gamepads: Query<(Entity, &Gamepad)>,
    store: Option<ResMut<CentralInputStore>>,
) {
    let Some(mut store) = store else {
        return;
    };
    let pressed = ButtonValue::from_pressed(true);
    for &key in keys.iter().flat_map(|keys| keys.get_just_pressed()) {
        store.update_buttonlike(key, pressed);
    }
    for (gamepad, buttons) in &gamepads {
        for &button in buttons.get_just_pressed() {
            store.update_buttonlike(SpecificGamepadButton { gamepad, button }, pressed);
            store.update_buttonlike(button, pressed);
        }
    }
}

/// The device the player last pressed something on, whose bindings hints and tips name.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Deref)]
pub struct LastDevice(pub Device);

impl Default for LastDevice {
    fn default() -> Self {
        LastDevice(Device::Keyboard)
    }
}

/// A key pressed makes the keyboard the device in use; a gamepad button pressed, or a stick
/// leant past [`STICK_PRESS`], the gamepad.
fn notice_the_device_in_use(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    gamepads: Query<&Gamepad>,
    mut last: ResMut<LastDevice>,
) {
    let key = keys.is_some_and(|keys| keys.get_just_pressed().next().is_some());
    let button = gamepads
        .iter()
        .any(|gamepad| gamepad.get_just_pressed().next().is_some());
    let stick = gamepads
        .iter()
        .any(|gamepad| gamepad.left_stick().length() > STICK_PRESS);
    let now = if button || stick {
        Device::Gamepad
    } else if key {
        Device::Keyboard
    } else {
        return;
    };
    last.set_if_neq(LastDevice(now));
}

/// A feature's actions, how the settings page lists them, and their default bindings.
pub trait Controls: Actionlike + Copy + GetTypeRegistration {
    /// The name of their section of the settings file (`"runner"`).
    const SECTION: &'static str;
    /// Their heading on the settings page ("Runner controls").
    const TITLE: &'static str;
    /// Whether the player may bind them to other keys and buttons.
    const REBINDABLE: bool = true;
    /// Every action, in the order the settings page lists them, with its menu item's name
    /// (`"controls.runner.jump"`, whose last part names it in the settings file) and what a
    /// player calls it.
    const ROWS: &'static [(Self, &'static str, &'static str)];

    /// The keys and gamepad buttons each action has until the player changes them.
    fn default_bindings() -> InputMap<Self>;
}

/// Registers the actions `A`: their input manager, the one entity that holds their bindings
/// and their state, and the player's own bindings of them ([`rebinding`]).
pub fn controls_plugin<A: Controls>(app: &mut App) {
    app.add_plugins(InputManagerPlugin::<A>::default());
    app.world_mut().spawn(A::default_bindings());
    rebinding::rebinding_plugin::<A>(app);
}

/// The state of the actions `A` this frame.
pub type Actions<'w, 's, A> = Single<'w, 's, &'static ActionState<A>>;

/// The left stick leant up, down, left or right, as a button.
pub fn left_stick(direction: Dir2) -> GamepadControlDirection {
    let (axis, positive) = if direction.x.abs() > direction.y.abs() {
        (GamepadAxis::LeftStickX, direction.x > 0.0)
    } else {
        (GamepadAxis::LeftStickY, direction.y > 0.0)
    };
    let lean = if positive {
        GamepadControlDirection::positive(axis)
    } else {
        GamepadControlDirection::negative(axis)
    };
    lean.threshold(STICK_PRESS)
}

/// What a player calls a gamepad button (the names printed on the common pads).
pub fn button_name(button: GamepadButton) -> &'static str {
    match button {
        GamepadButton::South => "A",
        GamepadButton::East => "B",
        GamepadButton::West => "X",
        GamepadButton::North => "Y",
        GamepadButton::Start => "Start",
        GamepadButton::Select => "Back",
        GamepadButton::DPadUp => "D-pad up",
        GamepadButton::DPadDown => "D-pad down",
        GamepadButton::DPadLeft => "D-pad left",
        GamepadButton::DPadRight => "D-pad right",
        GamepadButton::LeftTrigger => "LB",
        GamepadButton::RightTrigger => "RB",
        GamepadButton::LeftTrigger2 => "LT",
        GamepadButton::RightTrigger2 => "RT",
        GamepadButton::LeftThumb => "left stick press",
        GamepadButton::RightThumb => "right stick press",
        _ => "a gamepad button",
    }
}

/// What a player calls one binding: a key's name, a gamepad button's, or a stick's lean.
pub fn binding_name(binding: &dyn Buttonlike) -> String {
    let binding: &dyn Reflect = binding;
    if let Some(key) = binding.downcast_ref::<KeyCode>() {
        return key_name(*key);
    }
    if let Some(button) = binding.downcast_ref::<GamepadButton>() {
        return button_name(*button).to_owned();
    }
    if let Some(lean) = binding.downcast_ref::<GamepadControlDirection>() {
        let side = match (lean.axis, lean.direction) {
            (GamepadAxis::LeftStickX, AxisDirection::Negative) => "left",
            (GamepadAxis::LeftStickX, AxisDirection::Positive) => "right",
            (GamepadAxis::LeftStickY, AxisDirection::Positive) => "up",
            (GamepadAxis::LeftStickY, AxisDirection::Negative) => "down",
            _ => return "a stick".to_owned(),
        };
        return format!("stick {side}");
    }
    if let Some(button) = binding.downcast_ref::<MouseButton>() {
        return format!("{button:?} mouse button");
    }
    format!("{binding:?}")
}

/// Which of a player's devices a hint names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Device {
    /// Keys (and the mouse).
    Keyboard,
    /// Gamepad buttons and sticks.
    Gamepad,
}

/// Whether a binding is on `device`.
fn on_device(binding: &dyn Buttonlike, device: Device) -> bool {
    let binding: &dyn Reflect = binding;
    let gamepad = binding.is::<GamepadButton>() || binding.is::<GamepadControlDirection>();
    gamepad == (device == Device::Gamepad)
}

/// The bindings of `action` on `device`, as a player reads them: "Up, W or Space".
pub fn bindings_named<A: Actionlike>(map: &InputMap<A>, action: &A, device: Device) -> String {
    let mut bindings: Vec<&dyn Buttonlike> = map
        .get_buttonlike(action)
        .into_iter()
        .flatten()
        .map(AsRef::as_ref)
        .filter(|binding| on_device(*binding, device))
        .collect();
    // Buttons before a stick's lean, however they were bound.
    bindings.sort_by_key(|binding| (*binding as &dyn Reflect).is::<GamepadControlDirection>());
    let names: Vec<String> = bindings.into_iter().map(binding_name).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "nothing (see Settings)".to_owned(),
    }
}

/// A HUD's line of reminders: each action's bindings on `device`, then what it does
/// ("Up, W or Space jump   Down, S or Numpad 2 slide").
pub fn hint_line<A: Actionlike>(map: &InputMap<A>, device: Device, what: &[(A, &str)]) -> String {
    what.iter()
        .map(|(action, does)| format!("{} {does}", bindings_named(map, action, device)))
        .collect::<Vec<_>>()
        .join("   ")
}

/// The first binding of `action` on `device`: the one a hint names first.
pub fn first_binding<'a, A: Actionlike>(
    map: &'a InputMap<A>,
    action: &A,
    device: Device,
) -> Option<&'a dyn Buttonlike> {
    map.get_buttonlike(action)?
        .iter()
        .map(AsRef::as_ref)
        .find(|binding| on_device(*binding, device))
}

/// The first binding on `device` of each of `actions`, joined by slashes: "Up/Right/Down/Left",
/// for a set of actions a hint names together.
pub fn first_bindings<A: Actionlike>(map: &InputMap<A>, device: Device, actions: &[A]) -> String {
    actions
        .iter()
        .map(|action| {
            first_binding(map, action, device).map_or_else(|| "-".to_owned(), binding_name)
        })
        .collect::<Vec<_>>()
        .join("/")
}
