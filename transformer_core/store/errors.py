"""What a store raises: full (a bound was reached) or unavailable (Redis cannot be reached)."""


class StoreFull(RuntimeError):
    """A write would pass the store's bounds (keys or bytes); nothing was written."""


class StoreUnavailable(RuntimeError):
    """The shared store (Redis) cannot be reached right now; the caller says so and tries again later."""
