// On Apple platforms the system Combine framework is used; this module is intentionally empty so
// that the `Combine` product exists without shadowing Apple's module.
