// The surface types are part of this module's API: styles draw into them.
@_exported import HeadwaySurfaces
