import HeadwayMQTTProgram

HeadwayMQTTCommand.main()
