"""The league pages' forms: players, seasons, imports, and settling up (two players, a night)."""

from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    DateField,
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    ValidationError,
)
from wtforms.widgets import HiddenInput

from scorekeeper.league.seasons import LAST_SEASON_DAY, MAX_SEASON_NAME
from scorekeeper.models import MAX_ID, Role
from scorekeeper.table.forms import RulesForm
from scorekeeper.values import EARLIEST_DAY
from scorekeeper.web.formatting import CURRENCIES, DEFAULT_CURRENCY, currency_name, time_zones
from scorekeeper.web.forms import Form, name_validators, squeezed, visible
from scorekeeper.web.messages import ROLE_LABELS
from scorekeeper.web.translation import gettext
from scorekeeper.web.translation import lazy_gettext as _l


class PlayerForm(Form):
    name = StringField(
        _l("Name"), validators=name_validators(_l("Enter a name.")), filters=[squeezed]
    )
    submit = SubmitField(_l("Add player"))


class RenameForm(Form):
    name = StringField(
        _l("New name"), validators=name_validators(_l("Enter a name.")), filters=[squeezed]
    )
    #: The name typed, said to be no other player's after "Is it Ben?" was asked.
    confirmed = HiddenField(validators=[Length(max=1000)], filters=[squeezed])
    submit = SubmitField(_l("Rename"))


class MergeForm(Form):
    """Merge a player into another, as the page showed what would move."""

    into = IntegerField(widget=HiddenInput(), validators=[InputRequired(), NumberRange(1, MAX_ID)])
    #: Whose payment handle the player kept is paid by, when both have one.
    handle = RadioField(
        choices=[SelectChoice("into", "into"), SelectChoice("from", "from")], default="into"
    )
    #: What the page showed would move (``records.merging.MergePlan.signature``).
    signature = HiddenField(validators=[InputRequired(), Length(max=64)])
    submit = SubmitField(_l("Merge"))


class PlayerAccountForm(Form):
    """Which member's account is this player (issue 38, point 13); "" for nobody."""

    user = SelectField(_l("Member's account"), choices=[], validate_choice=False)


#: A browser's date picker offers only the days a season may have (seasons.check_season).
SEASON_DAYS = {"min": EARLIEST_DAY.isoformat(), "max": LAST_SEASON_DAY.isoformat()}


class SeasonForm(Form):
    name = StringField(
        _l("Name"),
        validators=[
            DataRequired(message=_l("Give the season a name.")),
            Length(
                max=MAX_SEASON_NAME,
                message=_l("At most %(most)s characters.", most=MAX_SEASON_NAME),
            ),
            visible,
        ],
        filters=[squeezed],
    )
    starts_on = DateField(
        _l("First day"),
        validators=[InputRequired(message=_l("Give the first day, like 2025-01-31."))],
        render_kw=SEASON_DAYS,
    )
    ends_on = DateField(
        _l("Last day"),
        validators=[InputRequired(message=_l("Give the last day, like 2025-12-31."))],
        render_kw=SEASON_DAYS,
    )
    submit = SubmitField(_l("Save the season"))

    def validate_ends_on(self, field: DateField) -> None:
        if self.starts_on.data and field.data and field.data < self.starts_on.data:
            raise ValidationError(gettext("The season can't end before it starts."))


IMPORT_FORMATS = [
    SelectChoice("csv", _l("Paper score cards (CSV, one row per deal)")),
    SelectChoice("json", _l("A league exported as JSON (into a league without games)")),
]


class ImportForm(Form):
    file = FileField(_l("File"))
    format = RadioField(_l("What the file holds"), choices=IMPORT_FORMATS, default="csv")
    #: The file sent in parts before, by the page's script (``transfer/parts.py``), if it was.
    upload = HiddenField(validators=[Length(max=32)])
    submit = SubmitField(_l("Check and import"))

    def validate_file(self, field: FileField) -> None:
        if not self.upload.data:
            FileRequired(message=_l("Choose a file to import."))(self, field)


class ImportPartForm(Form):
    """A part of a file too large for one request (``transfer/parts.py``)."""

    upload = StringField(validators=[Length(max=32)])
    offset = IntegerField(validators=[InputRequired(), NumberRange(0, 2**31 - 1)])
    part = FileField(validators=[FileRequired()])


class SettleForm(Form):
    """Mark the unpaid games between two players paid, as the page showed them."""

    # What the page showed: the newest unpaid game, how many there were and the net amount
    # owed to the first player, so that a game added or changed since is not paid unseen.
    through = IntegerField(
        widget=HiddenInput(), validators=[InputRequired(), NumberRange(1, MAX_ID)]
    )
    count = IntegerField(widget=HiddenInput(), validators=[InputRequired(), NumberRange(1)])
    net = IntegerField(widget=HiddenInput(), validators=[InputRequired()])
    submit = SubmitField(_l("Mark paid"))


class TickForm(Form):
    """One payment of a night ticked as made: who paid whom (the night's games are the
    page's ``games``)."""

    payer = IntegerField(widget=HiddenInput(), validators=[InputRequired(), NumberRange(1, MAX_ID)])
    payee = IntegerField(widget=HiddenInput(), validators=[InputRequired(), NumberRange(1, MAX_ID)])


class SettleNightForm(Form):
    """Every game of a night marked paid at once: asked first (``confirmed`` once it was)."""

    confirmed = BooleanField(widget=HiddenInput())


class LeagueDefaultsForm(RulesForm):
    """The rules and stakes a league's new games start from."""

    save_defaults = SubmitField(_l("Save the defaults"))


ROLE_CHOICES = [SelectChoice(str(int(role)), ROLE_LABELS[role]) for role in reversed(Role)]


class LeagueForm(Form):
    name = StringField(
        _l("League name"),
        validators=[DataRequired(message=_l("Name the league.")), Length(max=60), visible],
        filters=[squeezed],
    )
    public = BooleanField(_l("Public: anyone may read its games and standings"))
    time_zone = SelectField(
        _l("Time zone of its pages"),
        choices=lambda: [
            SelectChoice("", gettext("This server's")),
            *(SelectChoice(zone, zone) for zone in time_zones()),
        ],
        coerce=lambda zone: zone or "",  # a league without one: the server's
        default="",
        validate_choice=False,  # checked by league.service.update_league, with its message
    )
    currency = SelectField(
        _l("Currency of its amounts"),
        # Named in the page's language by Babel: "Euro (EUR)", "Dollar canadien (CAD)".
        choices=lambda: [
            SelectChoice(code, f"{currency_name(code)} ({code})") for code in CURRENCIES
        ],
        coerce=lambda code: code or DEFAULT_CURRENCY,  # a league without one: the default
        default=DEFAULT_CURRENCY,
        validate_choice=False,  # checked by league.service.update_league, with its message
    )
    submit = SubmitField(_l("Save"))


class MemberForm(Form):
    username = StringField(
        _l("Username"),
        validators=[DataRequired(message=_l("Enter a username.")), Length(max=40), visible],
        filters=[squeezed],
    )
    role = RadioField(_l("Role"), choices=ROLE_CHOICES, default=str(int(Role.SCOREKEEPER)))
    password = PasswordField(
        _l("Password for a new account"),
        description=_l(
            "Only when the username has no account yet: it is created with this password."
        ),
    )
    submit = SubmitField(_l("Add member"))


class StartRoundForm(Form):
    """Start every game of the round the Tonight page showed."""

    # The round as the page showed it (``tonight.Plan.signature``), and a one-time token.
    signature = HiddenField(validators=[InputRequired(), Length(max=2000)])
    token = HiddenField(validators=[InputRequired(), Length(min=16, max=64)])
    submit = SubmitField(_l("Start these games"))


class InvitationForm(Form):
    """A league admin invites someone: an invitation makes a viewer or a scorekeeper."""

    role = RadioField(
        _l("They join as"),
        choices=[choice for choice in ROLE_CHOICES if choice.value != str(int(Role.ADMIN))],
        default=str(int(Role.SCOREKEEPER)),
        # Posted as "role", drawn with ids of its own: the members page holds the member
        # form's "role" radios too, and an id is said once per page.
        id="invitation-role",
    )
    #: The league's player whoever joins is ("" for none): their account then says how they
    #: are paid (issue 38, point 13). Its choices are the league's players.
    player = SelectField(_l("For the player"), choices=[], validate_choice=False)
    submit = SubmitField(_l("Make an invitation link"))


class RoleForm(Form):
    role = RadioField(
        _l("Role"), choices=[*ROLE_CHOICES, SelectChoice("remove", _l("Remove from the league"))]
    )
    submit = SubmitField(_l("Change"))
