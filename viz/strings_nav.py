"""UI strings of the navigation sections (merged into viz.i18n.STRINGS)."""

STRINGS: dict[str, tuple[str, str]] = {
    "nav.section_stages": ("단계별 보기", "Stages"),
    "nav.section_lab": ("실험실", "Lab"),
    "nav.section_lesson": ("수업", "Class"),
}
