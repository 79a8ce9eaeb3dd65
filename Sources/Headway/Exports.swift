// The library product re-exports the layers a program needs to show progress.
@_exported import HeadwayCore
@_exported import HeadwayDevices
@_exported import HeadwayRender
@_exported import HeadwaySurfaces
