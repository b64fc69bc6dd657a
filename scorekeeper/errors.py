"""What a service refuses, as exceptions every area turns into a form error or a 4xx."""


class ServiceError(Exception):
    """A change that can't be made; ``field`` names the input at fault, if one is."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class Conflict(ServiceError):
    """The change conflicts with the game's state: finished, or changed since it was read."""


class StaleVersion(Conflict):
    """The change was made against a version of the game that is no longer its current one."""


class NotFound(ServiceError):
    """The game, deal or league named does not exist."""
