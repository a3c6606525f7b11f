/** Defaults and choices of the HomeKit bridge, kept apart from hap-nodejs so configuration can read them cheaply. */

/** The mDNS advertisers hap-nodejs offers. */
export const HOMEKIT_ADVERTISERS = ["ciao", "bonjour-hap", "avahi", "resolved"] as const;
export type HomeKitAdvertiser = (typeof HOMEKIT_ADVERTISERS)[number];

/** The HAP TCP port of the first bridge; further bridges take the ports after it. */
export const HOMEKIT_DEFAULT_PORT = 47128;
