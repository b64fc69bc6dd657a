"""What templates use beyond Jinja's own: stars, and each preset's rules for the new-game script."""


def stars(count: int) -> str:
    return "★" * count


def preset_rules() -> dict[str, dict[str, object]]:
    """Each preset's options, for the script that fills them in when a preset is picked."""
    from scorekeeper.engine import PRESETS
    from scorekeeper.table.forms import rules_data

    return {preset.value: rules_data(rules) for preset, rules in PRESETS.items()}
