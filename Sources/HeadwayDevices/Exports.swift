// The surface types are part of this module's API: drivers are given them.
@_exported import HeadwaySurfaces
